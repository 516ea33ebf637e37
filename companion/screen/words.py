"""The screen's own words in each language of the config's ``language`` (en, nl, es).

``say(lang, key, **values)`` gives the text for ``key`` with ``{values}`` filled in; an unknown language falls
back to English. Texts that come from elsewhere (the race call, refusal messages, side bet questions, life
outcomes, player names) are shown as they are. Label captions (NEW GAME, GO, DOUBLE) stay English in every
language: they name what is printed on the labels.

>>> say("nl", "your_pick", name="Ann")
'Ann, jouw keuze'
>>> place("es", 2)
'2º'
"""

from __future__ import annotations

LANGUAGES = ("en", "nl", "es")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "after_card": "After card {n}", "after_pass_card": "After pass {p} card {n}", "before_start": "Before the start", "if_ended_now": "If it ended now", "now": "Now",
        "race": "Race {n}", "pass": "Pass {n}", "card_of": "Card {n} of {m}", "check": "Check",
        "running_order": "Running order", "to_win": "To win", "last_card": "Last card", "no_card": "No card yet",
        "all": "All", "race_call": "Race call", "money": "Money", "space": "Space {n}", "lane": "Lane {n}",
        "nothing_moved": "Nothing moved", "undo": "Undo",
        "FINISHED": "Finished", "PLACED": "Placed", "FALLEN": "Fallen", "TURNED": "Turned", "DQ": "DQ", "KNOCKOUT": "Knockout",
        "OUT": "Out",
        "fell": "Fell", "up": "Up", "turned": "Turned", "finished": "Finished", "placed": "Placed",
        "out": "Out of bounds", "knocked out": "Knocked out",
        "act_ahead": "{n} ahead", "act_back": "{n} back", "act_R": "Stand up", "act_*": "Next star",
        "act_T": "Turn around", "act_F": "Fall", "act_<": "Swerve left", "act_>": "Swerve right",
        "fold_title": "Fold the mat", "fold_spaces": "Spaces {a} to {b} go under",
        "fold_under": "{names} went under: out of the race", "fold_nobody": "Nobody went under", "and": " and ",
        "fold_next": "Reshuffle all the cards, burn 3, then reveal the next card",
        "name_for": "Name for seat {seat} of {seats}", "name_keys": "Enter saves   Tab next seat   Esc closes",
        "not_taken": "Not taken",
        "caller": "The race caller", "scan_new": "Scan NEW GAME, then the number of players",
        "face_up": "Face-up cards scanned", "known": "{n} cards known",
        "known_of": "{n} of {m} scanned", "what_to_do": "What to do",
        "setup_help": "Scan the starting cards and the random face-up cards, then press GO. Or press GO at once "
                      "if the app should not know the deck.",
        "players": "Players", "name_key": "Keyboard: N to name a seat", "chance": "Chance to win",
        "not_known": "Not known yet", "updating": "updating",
        "your_pick": "{name}, your pick", "add_cards": "Add your cards face down, then GO",
        "draft_done": "Draft done: press GO",
        "double_due": "Race {race}: {names}, scan DOUBLE, then the ticket to double",
        "double_later": "Race {race}: after your last pick, scan DOUBLE, then the ticket to double",
        "double_due_short": "{names}: mark a double", "double_later_short": "After your last pick: mark a double",
        "side_bet": "Side bet", "no_side_card": "No side bet card yet: scan it before the draft",
        "stacks": "Ticket stacks: the top ticket pays (1st 2nd 3rd)", "empty": "Empty", "left": "{n} left",
        "top": "Top", "middle": "Middle", "bottom": "Bottom", "safe": "Safe", "risky": "Risky", "yes": "Yes",
        "no": "No", "tickets": "Tickets", "mark_double": "Mark a double", "payouts_after": "Payouts after race {n}",
        "no_tickets": "No tickets", "places": "Places", "no_side_bet": "No side bet this race",
        "happened": "Yes, it happened", "not_happened": "No, it did not", "final": "Final standings",
        "seat": "Seat {n}",
        "notice_saving": "Saving: the SD card is slow, one moment", "notice_saved": "Saving again: play on",
        "notice_cannot-save": "Can't save - check the SD card", "notice_rescued": "The game was saved again",
        "notice_moved-aside": "The journal was damaged and moved aside: a new game starts",
        "notice_skipped": "Some saved scans no longer fit this game and were left out", "notice": "Note",
        "notice_typed-slowly": "Typed too slowly for a scan: use the scanner, or n to name a seat",
        "part_scanner": "scanner", "part_leds": "lights", "part_buttons": "buttons", "part_screen": "screen",
        "part_voice": "voice", "part_journal": "SD card", "part_web": "phone page", "part_odds": "odds",
        "follow": "Follow on your phone", "join_code": "code {code}",
        "phase_new-game": "New game", "phase_setup": "Setup: scan the face-up cards", "phase_betting": "Betting",
        "phase_adding-cards": "Add your cards face down, then GO", "phase_racing": "Racing",
        "phase_payouts": "Payouts", "phase_game-over": "Game over",
        "moment_fall": "{names} falls!", "moment_fall_many": "{names} fall!",
        "moment_fall_note": "Lay {names} down: a fallen mascot crawls, 1 space a move",
        "moment_knockout": "{names} knocked out!", "moment_knockout_note": "Fell while down: off the track, DQ",
        "moment_out": "{names} out of bounds!", "moment_out_back": "Off the back of the track: DQ",
        "moment_out_side": "Off the side of the track: DQ", "moment_out_fold": "Folded under the mat: DQ",
        "moment_out_note": "Off the track: DQ", "moment_finish": "{names} crosses the line!",
        "moment_finish_note": "Finished: off the track, onto the podium", "moment_side_yes": "Side bet: yes!",
        "moment_side_no": "Side bet: no!", "moment_winner": "{names} wins!", "moment_winner_note": "Race {n} is over",
        "bets_title": "Bets: {n} of {m} in", "bets_none": "Scan each seat's bet, or press GO to race without bets",
        "bets_missing": "Still to bet: {names}", "bets_missing_n": "{n} seats still to bet",
        "bets_in": "All bets in: press GO", "no_bet": "No bet yet",
        "answer_due": "Yes or no?", "mascot_due": "Which mascot?",
        "mascot_due_short": "Mascot?", "answer_due_short": "Yes/no?", "double_mark_short": "Double?",
    },
    "nl": {
        "after_card": "Na kaart {n}", "after_pass_card": "Na ronde {p} kaart {n}", "before_start": "Voor de start", "if_ended_now": "Als het nu eindigde", "now": "Nu",
        "race": "Race {n}", "pass": "Ronde {n}", "card_of": "Kaart {n} van {m}", "check": "Controleer",
        "running_order": "Tussenstand", "to_win": "Winkans", "last_card": "Laatste kaart",
        "no_card": "Nog geen kaart", "all": "Iedereen", "race_call": "Verslag", "money": "Geld", "space": "Vak {n}",
        "lane": "Baan {n}", "nothing_moved": "Niemand verroert zich", "undo": "Ongedaan gemaakt",
        "FINISHED": "Binnen", "PLACED": "Geplaatst", "FALLEN": "Gevallen", "TURNED": "Achterstevoren", "DQ": "DQ", "KNOCKOUT": "Knock-out",
        "OUT": "Uit",
        "fell": "Valt", "up": "Staat op", "turned": "Draait om", "finished": "Binnen", "placed": "Geplaatst",
        "out": "Van de mat", "knocked out": "Knock-out",
        "act_ahead": "{n} vooruit", "act_back": "{n} terug", "act_R": "Opstaan", "act_*": "Volgende ster",
        "act_T": "Omdraaien", "act_F": "Vallen", "act_<": "Uitwijken links", "act_>": "Uitwijken rechts",
        "fold_title": "Vouw de mat", "fold_spaces": "Vakken {a} t/m {b} gaan onder de vouw",
        "fold_under": "Onder de vouw: {names}, uit de race", "fold_nobody": "Niemand onder de vouw", "and": " en ",
        "fold_next": "Schud alle kaarten, leg er 3 blind weg, draai dan de volgende kaart om",
        "name_for": "Naam voor speler {seat} van {seats}",
        "name_keys": "Enter bewaart   Tab volgende speler   Esc sluit", "not_taken": "Niet geaccepteerd",
        "caller": "De racecommentator", "scan_new": "Scan NEW GAME en dan het aantal spelers",
        "face_up": "Gescande open kaarten", "known": "{n} kaarten bekend",
        "known_of": "{n} van {m} gescand", "what_to_do": "Wat nu",
        "setup_help": "Scan de startkaarten en de willekeurige open kaarten, druk dan op GO. Of druk meteen op "
                      "GO als de app de stapel niet hoeft te kennen.",
        "players": "Spelers", "name_key": "Toetsenbord: N voor een naam", "chance": "Winkans",
        "not_known": "Nog niet bekend", "updating": "wordt bijgewerkt",
        "your_pick": "{name}, jouw keuze", "add_cards": "Leg je kaarten gedekt erbij en druk dan op GO",
        "draft_done": "Alles gekozen: druk op GO",
        "double_due": "Race {race}: {names}, scan DOUBLE en dan het ticket dat je verdubbelt",
        "double_later": "Race {race}: na je laatste keuze, scan DOUBLE en dan het ticket dat je verdubbelt",
        "double_due_short": "{names}: kies een verdubbeling",
        "double_later_short": "Na je laatste keuze: verdubbelen",
        "side_bet": "Bijweddenschap", "no_side_card": "Nog geen bijweddenschap: scan de kaart vóór het kiezen",
        "stacks": "Ticketstapels: het bovenste ticket betaalt (1e 2e 3e)", "empty": "Leeg", "left": "nog {n}",
        "top": "Boven", "middle": "Midden", "bottom": "Onder", "safe": "Veilig", "risky": "Riskant", "yes": "Ja",
        "no": "Nee", "tickets": "Tickets", "mark_double": "Kies een verdubbeling",
        "payouts_after": "Uitbetaling na race {n}", "no_tickets": "Geen tickets", "places": "Plaatsen",
        "no_side_bet": "Geen bijweddenschap in deze race", "happened": "Ja, het is gebeurd",
        "not_happened": "Nee, het is niet gebeurd", "final": "Eindstand", "seat": "Speler {n}",
        "notice_saving": "Bezig met opslaan: de SD-kaart is traag, even geduld",
        "notice_saved": "Opslaan lukt weer: speel verder",
        "notice_cannot-save": "Opslaan lukt niet, kijk naar de SD-kaart",
        "notice_rescued": "Het spel is opnieuw opgeslagen",
        "notice_moved-aside": "Het logboek was beschadigd en is opzij gezet: er begint een nieuw spel",
        "notice_skipped": "Een paar opgeslagen scans passen niet meer bij dit spel en zijn overgeslagen",
        "notice_typed-slowly": "Te langzaam getypt voor een scan: gebruik de scanner, of n om een plaats te benoemen",
        "notice": "Let op",
        "part_scanner": "scanner", "part_leds": "lampjes", "part_buttons": "knoppen", "part_screen": "scherm",
        "part_voice": "stem", "part_journal": "SD-kaart", "part_web": "telefoonpagina", "part_odds": "winkansen",
        "follow": "Volg het op je telefoon", "join_code": "toegang {code}",
        "phase_new-game": "Nieuw spel", "phase_setup": "Voorbereiding: scan de open kaarten",
        "phase_betting": "Inzetten", "phase_adding-cards": "Leg je kaarten gedekt erbij en druk dan op GO",
        "phase_racing": "Race", "phase_payouts": "Uitbetaling", "phase_game-over": "Einde van het spel",
        "moment_fall": "{names} valt!", "moment_fall_many": "{names} vallen!",
        "moment_fall_note": "Leg {names} neer: een liggende mascotte kruipt, 1 vak per zet",
        "moment_knockout": "{names} knock-out!", "moment_knockout_note": "Tweede val: van de mat, DQ",
        "moment_out": "{names} van de mat!", "moment_out_back": "Over de achterkant: DQ",
        "moment_out_side": "Over de zijkant: DQ",
        "moment_out_fold": "Onder de vouw: DQ", "moment_out_note": "Van de mat: DQ",
        "moment_finish": "{names} over de streep!", "moment_finish_note": "Binnen: van de mat, op het podium",
        "moment_side_yes": "Bijweddenschap: ja!", "moment_side_no": "Bijweddenschap: nee!",
        "moment_winner": "{names} wint!", "moment_winner_note": "Race {n} is voorbij",
        "bets_title": "Inzetten: {n} van {m} binnen",
        "bets_none": "Scan ieders inzet, of druk op GO om zonder inzet te racen",
        "bets_missing": "Nog inzetten: {names}", "bets_missing_n": "Nog {n} spelers moeten inzetten",
        "bets_in": "Alles ingezet: druk op GO", "no_bet": "Nog niets ingezet",
        "answer_due": "Ja of nee?", "mascot_due": "Welke mascotte?",
        "mascot_due_short": "Mascotte?", "answer_due_short": "Ja/nee?", "double_mark_short": "Dubbel?",
    },
    "es": {
        "after_card": "Tras la carta {n}", "after_pass_card": "Tras ronda {p} carta {n}", "before_start": "Antes de salir", "if_ended_now": "Si acabara ahora", "now": "Ahora",
        "race": "Carrera {n}", "pass": "Ronda {n}", "card_of": "Carta {n} de {m}", "check": "Revisar",
        "running_order": "Posiciones", "to_win": "Para ganar", "last_card": "Última carta",
        "no_card": "Aún sin carta", "all": "Todos", "race_call": "Narración", "money": "Dinero",
        "space": "Casilla {n}", "lane": "Carril {n}", "nothing_moved": "Nadie se mueve", "undo": "Deshecho",
        "FINISHED": "En meta", "PLACED": "Con puesto", "FALLEN": "En el suelo", "TURNED": "De espaldas", "DQ": "DQ", "KNOCKOUT": "K.O.",
        "OUT": "Fuera",
        "fell": "Al suelo", "up": "Se levanta", "turned": "Se da la vuelta", "finished": "En meta",
        "placed": "Con puesto", "out": "Fuera de pista", "knocked out": "K.O.",
        "act_ahead": "{n} adelante", "act_back": "{n} atrás", "act_R": "Levantarse", "act_*": "Siguiente estrella",
        "act_T": "Darse la vuelta", "act_F": "Caer", "act_<": "Desvío a la izquierda",
        "act_>": "Desvío a la derecha",
        "fold_title": "Pliega el tapete", "fold_spaces": "Las casillas {a} a {b} quedan bajo el pliegue",
        "fold_under": "Bajo el pliegue: {names}, fuera de la carrera",
        "fold_nobody": "Nadie queda bajo el pliegue",
        "and": " y ", "fold_next": "Baraja todas las cartas, quema 3 y revela la siguiente",
        "name_for": "Nombre del jugador {seat} de {seats}",
        "name_keys": "Enter guarda   Tab siguiente jugador   Esc cierra", "not_taken": "No aceptado",
        "caller": "El narrador de carreras", "scan_new": "Escanea NEW GAME y luego el número de jugadores",
        "face_up": "Cartas boca arriba escaneadas", "known": "{n} cartas conocidas",
        "known_of": "{n} de {m} escaneadas", "what_to_do": "Qué hacer",
        "setup_help": "Escanea las cartas iniciales y las cartas boca arriba al azar, luego pulsa GO. O pulsa GO "
                      "ya si la app no debe conocer el mazo.",
        "players": "Jugadores", "name_key": "Teclado: N para poner un nombre", "chance": "Probabilidad de ganar",
        "not_known": "Aún no se sabe", "updating": "actualizando",
        "your_pick": "{name}, te toca elegir", "add_cards": "Añadid vuestras cartas boca abajo y pulsad GO",
        "draft_done": "Elección terminada: pulsa GO",
        "double_due": "Carrera {race}: {names}, escanead DOUBLE y luego el boleto que se dobla",
        "double_later": "Carrera {race}: tras tu última elección, escanea DOUBLE y luego el boleto que se dobla",
        "double_due_short": "{names}: marcad un doble", "double_later_short": "Al acabar de elegir: marca un doble",
        "side_bet": "Apuesta extra", "no_side_card": "Aún sin apuesta extra: escanéala antes de elegir",
        "stacks": "Montones de boletos: el de arriba paga (1º 2º 3º)", "empty": "Vacío", "left": "quedan {n}",
        "top": "Arriba", "middle": "Medio", "bottom": "Abajo", "safe": "Seguro", "risky": "Arriesgado", "yes": "Sí",
        "no": "No", "tickets": "Boletos", "mark_double": "Marca un doble", "payouts_after": "Pagos tras la carrera {n}",
        "no_tickets": "Sin boletos", "places": "Puestos", "no_side_bet": "Sin apuesta extra en esta carrera",
        "happened": "Sí, se cumplió", "not_happened": "No, no se cumplió", "final": "Clasificación final",
        "seat": "Jugador {n}",
        "notice_saving": "Guardando: la tarjeta SD va lenta, un momento",
        "notice_saved": "Ya se guarda otra vez: seguid jugando",
        "notice_cannot-save": "No puedo guardar, revisad la tarjeta SD",
        "notice_rescued": "La partida se ha guardado de nuevo",
        "notice_moved-aside": "El registro estaba dañado y se ha apartado: empieza una partida nueva",
        "notice_skipped": "Algunos escaneos guardados ya no encajan en esta partida y se han omitido",
        "notice_typed-slowly": "Tecleado demasiado despacio para un escaneo: usa el escáner, o n para nombrar un puesto",
        "notice": "Aviso",
        "part_scanner": "escáner", "part_leds": "luces", "part_buttons": "botones", "part_screen": "pantalla",
        "part_voice": "voz", "part_journal": "tarjeta SD", "part_web": "página del móvil",
        "part_odds": "probabilidades",
        "follow": "Síguelo en el móvil", "join_code": "código {code}",
        "phase_new-game": "Nueva partida", "phase_setup": "Preparación: escanea las cartas boca arriba",
        "phase_betting": "Apuestas", "phase_adding-cards": "Añadid vuestras cartas boca abajo y pulsad GO",
        "phase_racing": "Carrera", "phase_payouts": "Pagos", "phase_game-over": "Fin de la partida",
        "moment_fall": "¡{names} se cae!", "moment_fall_many": "¡{names} se caen!",
        "moment_fall_note": "Acuesta a {names}: en el suelo se arrastra, 1 casilla por movimiento",
        "moment_knockout": "¡{names}, K.O.!", "moment_knockout_note": "Segunda caída: fuera de la pista, DQ",
        "moment_out": "¡{names}, fuera de la pista!", "moment_out_back": "Fuera por detrás: DQ",
        "moment_out_side": "Fuera por el lado: DQ", "moment_out_fold": "Bajo el pliegue: DQ",
        "moment_out_note": "Fuera de la pista: DQ", "moment_finish": "¡{names} cruza la meta!",
        "moment_finish_note": "En meta: fuera de la pista, al podio", "moment_side_yes": "Apuesta extra: ¡sí!",
        "moment_side_no": "Apuesta extra: ¡no!", "moment_winner": "¡{names} gana!",
        "moment_winner_note": "Fin de la carrera {n}",
        "bets_title": "Apuestas: {n} de {m} hechas",
        "bets_none": "Escanea cada apuesta, o pulsa GO para correr sin apuestas",
        "bets_missing": "Faltan por apostar: {names}", "bets_missing_n": "Faltan {n} jugadores por apostar",
        "bets_in": "Apuestas hechas: pulsa GO", "no_bet": "Sin apuesta aún",
        "answer_due": "¿Sí o no?", "mascot_due": "¿Qué mascota?",
        "mascot_due_short": "¿Mascota?", "answer_due_short": "¿Sí/no?", "double_mark_short": "¿Doble?",
    },
}


def say(lang: str, key: str, **values: object) -> str:
    """The text for ``key`` in ``lang`` (English if the language or key is unknown), values filled in."""
    table = WORDS.get(lang, WORDS["en"])
    text = table.get(key, WORDS["en"].get(key, key))
    return text.format(**values) if values else text


def place(lang: str, n: int) -> str:
    """A paid place: ``1st`` / ``1e`` / ``1º``."""
    if lang == "nl":
        return f"{n}e"
    if lang == "es":
        return f"{n}º"
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def part(lang: str, status_line: str) -> str:
    """The table's word for the device a status line is about: ``"leds: failed (...)"`` -> ``"lights"``; a
    part without a word is named by its key as it is."""
    key = status_line.split(":", 1)[0].strip()
    return say(lang, "part_" + key) if "part_" + key in WORDS["en"] else key


def action(lang: str, act: str) -> str:
    """Words for one card action (docs/rules.md 2): ``+2`` -> ``2 ahead``, ``T`` -> ``Turn around``."""
    if act[:1] == "+":
        return say(lang, "act_ahead", n=act[1:])
    if act[:1] == "-":
        return say(lang, "act_back", n=act[1:])
    return say(lang, "act_" + act)


__all__ = ["LANGUAGES", "WORDS", "action", "part", "place", "say"]
