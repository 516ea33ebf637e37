// Hot Streak phone page: follows the table over a WebSocket (every message is the whole view), claims a seat,
// shows the seat's tickets with what they pay on average, and places open-variant bets. No build step.
"use strict";
const T = {
  en: { "new-game": "Waiting for a new game", setup: "Setup: face-up cards", betting: "Betting",
    "adding-cards": "Cards go in face down", racing: "Racing!", payouts: "Payouts", "game-over": "Game over",
    race_of: "Race {n} of {m}", race: "Race", pass: "Pass {p} · card {r}/{t}", last_card: "Last card",
    odds: "Odds 1st / 2nd / 3rd / 4th", side_bet: "Side bet", money: "Money", standings: "Final standings",
    race_call: "Race call", join: "Take a seat", claim: "Sit", name: "Your name", seat: "Seat {n}",
    taken: "taken", your_bet: "Your bet", yes: "YES", no: "NO", double: "Double:", mascot: "Mascot",
    place_bet: "Place bet", seat_options: "Seat", rename: "Rename", leave: "Leave seat", worth: "≈ {x}",
    paid: "paid {x}", no_tickets: "No tickets yet", happened: "YES, it happened", not_happened: "NO",
    open: "not decided yet", your_pick: "Your pick!", picks: "{name} picks", space: "space {s}",
    fallen: "fallen", out: "out", top: "top", middle: "middle", bottom: "bottom", safe: "safe", risky: "risky",
    bet_now: "{m} + {a}", no_bet: "No bet yet", places: ["1st", "2nd", "3rd", "4th"], you: "you",
    no_game: "Scan the number of players to start", code: "Code on the screen",
    again: "This phone no longer holds a seat: pick your seat again" },
  nl: { "new-game": "Wachten op een nieuw spel", setup: "Opzet: open kaarten", betting: "Inzetten",
    "adding-cards": "Kaarten gedekt erbij", racing: "De race loopt!", payouts: "Uitbetaling",
    "game-over": "Spel voorbij", race_of: "Race {n} van {m}", race: "Race", pass: "Ronde {p} · kaart {r}/{t}",
    last_card: "Laatste kaart", odds: "Kansen 1e / 2e / 3e / 4e", side_bet: "Bijweddenschap", money: "Geld",
    standings: "Eindstand", race_call: "Commentaar", join: "Kies je plek", claim: "Zitten",
    name: "Je naam", seat: "Speler {n}", taken: "bezet", your_bet: "Jouw inzet", yes: "JA", no: "NEE",
    double: "Dubbel:", mascot: "Mascotte", place_bet: "Inzetten", seat_options: "Plek", rename: "Hernoem",
    leave: "Plek vrijgeven", worth: "≈ {x}", paid: "betaalt {x}", no_tickets: "Nog geen tickets",
    happened: "JA, het gebeurde", not_happened: "NEE", open: "nog niet beslist", your_pick: "Jij kiest!",
    picks: "{name} kiest", space: "vak {s}", fallen: "gevallen", out: "eruit", top: "boven",
    middle: "midden", bottom: "onder", safe: "veilig", risky: "riskant", bet_now: "{m} + {a}",
    no_bet: "Nog geen inzet", places: ["1e", "2e", "3e", "4e"], you: "jij",
    no_game: "Scan het aantal spelers om te beginnen", code: "Code op het scherm",
    again: "Deze telefoon heeft geen plek meer: kies je plek opnieuw" },
  es: { "new-game": "Esperando una partida nueva", setup: "Preparación: cartas boca arriba",
    betting: "Apuestas", "adding-cards": "Cartas boca abajo", racing: "¡Carrera!", payouts: "Pagos",
    "game-over": "Fin de la partida", race_of: "Carrera {n} de {m}", race: "Carrera",
    pass: "Ronda {p} · carta {r}/{t}", last_card: "Última carta", odds: "Probabilidad 1º / 2º / 3º / 4º",
    side_bet: "Apuesta extra", money: "Dinero", standings: "Clasificación final", race_call: "Narración",
    join: "Elige tu sitio", claim: "Sentarme", name: "Tu nombre", seat: "Jugador {n}", taken: "ocupado",
    your_bet: "Tu apuesta", yes: "SÍ", no: "NO", double: "Doble:", mascot: "Mascota", place_bet: "Apostar",
    seat_options: "Sitio", rename: "Renombrar", leave: "Dejar el sitio", worth: "≈ {x}", paid: "paga {x}",
    no_tickets: "Aún sin boletos", happened: "SÍ, ha pasado", not_happened: "NO", open: "aún sin decidir",
    your_pick: "¡Te toca elegir!", picks: "Elige {name}", space: "casilla {s}", fallen: "en el suelo",
    out: "fuera", top: "arriba", middle: "medio", bottom: "abajo", safe: "seguro", risky: "arriesgado",
    bet_now: "{m} + {a}", no_bet: "Aún sin apuesta", places: ["1º", "2º", "3º", "4º"], you: "tú",
    no_game: "Escanea el número de jugadores para empezar", code: "Código de la pantalla",
    again: "Este móvil ya no tiene sitio: elige tu sitio otra vez" },
};
const MASCOTS = ["gobbler", "hurley", "dangle", "mum"];
const KEY = "hotstreak-seat";
let lang = "en", view = null, ws = null, retry = 0, timer = 0, lastMessage = 0, choice = {};

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const cap = (m) => m.charAt(0).toUpperCase() + m.slice(1);
const money = (x) => (x < 0 ? "-$" : "$") + Math.abs(x);
function t(key, args) {
  let s = (T[lang] || T.en)[key] ?? T.en[key] ?? key;
  for (const [k, v] of Object.entries(args || {})) s = s.replace("{" + k + "}", v);
  return s;
}
function mine() { try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; } }
function setMine(v) { v ? localStorage.setItem(KEY, JSON.stringify(v)) : localStorage.removeItem(KEY); }

// ----- connection ---------------------------------------------------------------------------------------
function connect() {
  clearTimeout(timer);
  if (ws && ws.readyState <= 1) return;
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => { retry = 0; $("conn").className = ""; };
  ws.onmessage = (e) => { lastMessage = Date.now(); render(JSON.parse(e.data)); };
  ws.onclose = () => {
    $("conn").className = "off";
    timer = setTimeout(connect, Math.min(5000, 300 * 2 ** retry++));
  };
}
function wake() {  // back from sleep: a socket silent for too long is dead even if it looks open
  if (ws && ws.readyState === 1 && Date.now() - lastMessage > 45000) ws.close();
  connect();
}
document.addEventListener("visibilitychange", () => { if (!document.hidden) wake(); });
window.addEventListener("online", wake);
window.addEventListener("pageshow", wake);
setInterval(wake, 15000);

async function post(path, body) {
  let answer;
  try {
    const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    answer = await r.json().catch(() => ({ok: false, error: "HTTP " + r.status}));
    if (r.status === 403 && body.token && body.seat === (mine() || {}).seat && answer.reason === "not-yours") {
      setMine(null); answer.line = t("again");  // a token of another journal or claim: pick the seat again
    }
  } catch (e) { answer = {ok: false, error: String(e)}; }
  if (!answer.ok) notice(answer.line || answer.error);
  return answer;
}
let noticeTimer = 0;
function notice(text) {
  const el = $("notice");
  el.textContent = text; el.hidden = false;
  clearTimeout(noticeTimer); noticeTimer = setTimeout(() => { el.hidden = true; }, 8000);
}

// ----- actions ------------------------------------------------------------------------------------------
$("join-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const seat = Number($("join-seat").value), name = $("join-name").value;
  const locked = view && view.seats[seat - 1] && view.seats[seat - 1].locked;
  const a = await post("/api/claim", locked ? {seat, name, code: $("join-code").value} : {seat, name});
  if (a.ok) { setMine({seat: a.seat, token: a.token}); $("notice").hidden = true; if (view) render(view); }
});
$("rename-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const m = mine(); if (!m) return;
  const a = await post("/api/claim", {seat: m.seat, token: m.token, name: $("rename-name").value});
  if (a.ok) { setMine({seat: a.seat, token: a.token}); $("me-more").open = false; }
});
$("leave-btn").addEventListener("click", async () => {
  const m = mine(); if (!m) return;
  const a = await post("/api/leave", {seat: m.seat, token: m.token});
  if (a.ok) { setMine(null); if (view) render(view); }
});
$("bet-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const m = mine(); if (!m) return;
  const a = await post("/api/bet", {seat: m.seat, token: m.token, mascot: choice.mascot || null,
    answer: choice.answer || null, double: choice.double || null});
  if (a.ok) $("notice").hidden = true;
});
$("bet-answer").addEventListener("click", (e) => pick(e, "answer"));
$("bet-double").addEventListener("click", (e) => pick(e, "double"));
$("bet-mascots").addEventListener("click", (e) => pick(e, "mascot"));
function pick(e, what) {
  const b = e.target.closest("button"); if (!b) return;
  const value = b.dataset[what];
  choice[what] = choice[what] === value && what === "double" ? null : value;
  for (const other of b.parentNode.querySelectorAll("button")) other.classList.toggle("on", other.dataset[what] === choice[what]);
}

// ----- drawing ------------------------------------------------------------------------------------------
function render(v) {
  view = v;
  if (v.lang && v.lang !== lang) { lang = v.lang; document.documentElement.lang = lang; }
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  $("join-name").placeholder = t("name"); $("rename-name").placeholder = t("name");
  $("join-code").placeholder = t("code");
  $("race-no").textContent = v.players ? t("race_of", {n: v.race, m: v.races}) : "";
  let phase = t(v.phase);
  if (v.phase === "new-game") phase += " · " + t("no_game");
  if (v.whose_pick) {
    const m = mine();
    phase = m && m.seat === v.whose_pick ? t("your_pick") : t("picks", {name: seatName(v, v.whose_pick)});
  }
  $("phase").textContent = phase;
  drawSeat(v); drawRace(v); drawOdds(v); drawSide(v); drawMoney(v); drawCall(v);
  $("address").textContent = v.address || "";
}
function showCode() {  // a seat the table plays is claimed with the code shown beside it on the screen
  const s = view && view.seats[Number($("join-seat").value) - 1];
  $("join-code").hidden = !(s && s.locked);
}
$("join-seat").addEventListener("change", showCode);
function seatName(v, n) { const s = v.seats[n - 1]; return s && s.named ? s.name : t("seat", {n}); }

function drawSeat(v) {
  let m = mine();
  const seat = m && v.seats[m.seat - 1];
  if (m && v.players && (!seat || !seat.claimed)) { setMine(null); m = null; }  // the claim is gone (new game, undo)
  $("me").hidden = !m || !seat;
  $("join").hidden = !!m || !v.players || v.phase === "game-over";
  if (m && seat) {
    $("me-name").textContent = seatName(v, seat.seat);
    $("me-money").textContent = money(seat.money);
    const rows = seat.tickets.map((k) => {
      const [stack, level] = k.ticket.split("-");
      const label = (stack === "yes" || stack === "no" ? t(stack) : cap(stack)) + " " + t(level) + " · " + t(k.side) + (k.double ? " ×2" : "");
      let ev = "";
      if (k.paid !== null) ev = `<span class="ev ${k.paid > 0 ? "win" : k.paid < 0 ? "loss" : ""}">${t("paid", {x: "<b>" + money(k.paid) + "</b>"})}</span>`;
      else if (k.ev !== null) ev = `<span class="ev">${t("worth", {x: "<b>$" + k.ev.toFixed(1) + "</b>"})}</span>`;
      return `<div class="ticket"><span>${esc(label)}</span>${ev}</div>`;
    });
    if (v.variant === "open") {
      const b = seat.bet || {};
      const parts = [b.mascot ? cap(b.mascot) + (b.double === "mascot" ? " ×2" : "") : null,
        b.answer ? t(b.answer) + (b.double === "side" ? " ×2" : "") : null].filter(Boolean);
      const ev = b.ev !== null && b.ev !== undefined ? `<span class="ev">${t("worth", {x: "<b>$" + b.ev.toFixed(1) + "</b>"})}</span>` : "";
      rows.push(`<div class="ticket" id="my-bet"><span>${esc(parts.length ? t("your_bet") + ": " + parts.join(" + ") : t("no_bet"))}</span>${ev}</div>`);
    } else if (!rows.length) rows.push(`<div class="ticket"><span>${esc(t("no_tickets"))}</span></div>`);
    $("tickets").innerHTML = rows.join("");
    const betting = v.variant === "open" && v.phase === "betting";
    $("bet-form").hidden = !betting;
    if (betting && !$("bet-mascots").children.length) {
      $("bet-mascots").innerHTML = MASCOTS.map((x) => `<button type="button" class="${x}" data-mascot="${x}">${cap(x)}</button>`).join("");
    }
    $("bet-double").hidden = v.race !== v.double_race;
  } else {
    const sel = $("join-seat"), want = v.seats.map((s) => `${s.seat}:${s.claimed}:${s.name}:${s.locked}`).join("|");
    if (sel.dataset.want !== want) {
      const keep = sel.value;
      sel.innerHTML = v.seats.map((s) => `<option value="${s.seat}" ${s.claimed ? "disabled" : ""}>${esc(t("seat", {n: s.seat}))}${s.named ? " · " + esc(s.name) : ""}${s.claimed ? " (" + esc(t("taken")) + ")" : ""}</option>`).join("");
      const free = v.seats.find((s) => !s.claimed);
      sel.value = keep && !v.seats[keep - 1]?.claimed ? keep : free ? String(free.seat) : "";
      sel.dataset.want = want;
    }
    showCode();
  }
}

function drawRace(v) {
  const tr = v.track, edge = v.folds > 0 ? tr.fold_lines[Math.min(v.folds, tr.fold_lines.length) - 1] : 1;
  const lanes = [];
  for (let lane = 1; lane <= tr.lanes; lane++) {
    const cells = [];
    for (let s = 1; s <= tr.spaces; s++) {
      const here = v.mascots.filter((m) => m.status === "racing" && m.lane === lane && m.space === s);
      const cls = "cell" + (s === tr.finish_space ? " finish" : "") + (s < edge ? " gone" : "");
      const dots = here.map((m) => `<div class="dot ${m.mascot}${m.fallen ? " fallen" : ""}${m.facing === "backward" ? " backward" : ""}" title="${m.mascot}">${m.mascot[0].toUpperCase()}</div>`).join("");
      cells.push(`<div class="${cls}">${dots}</div>`);
    }
    lanes.push(`<div class="lane" style="grid-template-columns: repeat(${tr.spaces}, 1fr)">${cells.join("")}</div>`);
  }
  $("track").innerHTML = lanes.join("");
  $("pass").textContent = v.phase === "racing" || v.phase === "payouts" ? t("pass", {p: v.pass, r: v.revealed, t: v.per_pass}) : "";
  const c = v.last_card;
  $("last-card").innerHTML = c ? `${esc(t("last_card"))}: <span class="swatch ${c.mascot || ""}" style="${c.mascot ? "" : "background:#3ccf6e"}"></span>${esc(c.notation)}` : "";
  const place = {}; for (const [m, p] of v.podium) place[m] = p;
  $("order").innerHTML = v.order.map((name) => {
    const m = v.mascots.find((x) => x.mascot === name);
    let tag = place[name] ? t("places")[place[name] - 1] : t("space", {s: m.space});
    if (m.status === "dq") tag = t("out") + (place[name] ? " · " + t("places")[place[name] - 1] : "");
    else if (m.fallen && m.status === "racing") tag += " · " + t("fallen");
    return `<li><span class="swatch ${name}"></span>${cap(name)}<span class="tag">${esc(tag)}</span></li>`;
  }).join("");
}

function drawOdds(v) {
  $("odds-box").hidden = !v.odds;
  if (!v.odds) return;
  $("odds").style.opacity = v.odds_stale ? 0.45 : 1;  // made for an earlier card: newer odds are coming
  $("odds").innerHTML = MASCOTS.filter((m) => v.odds[m]).map((m) => {
    const shades = [1, 0.75, 0.5, 0.3];
    const parts = v.odds[m].map((p, i) => `<span class="${m}" style="width:${(p * 100).toFixed(1)}%;opacity:${shades[i]}">${p >= 0.12 ? Math.round(p * 100) + "%" : ""}</span>`).join("");
    return `<div class="oddsrow"><span><span class="swatch ${m}"></span>${cap(m)}</span><div class="bar">${parts}</div></div>`;
  }).join("");
}

function drawSide(v) {
  $("side-box").hidden = !v.side_bet;
  if (!v.side_bet) return;
  const h = v.side_bet.happened;
  $("side").innerHTML = `${esc(v.side_bet.question)}<div class="tag">${esc(h === true ? t("happened") : h === false ? t("not_happened") : t("open"))}</div>`;
}

function drawMoney(v) {
  const m = mine();
  $("money-box").hidden = !v.seats.length;
  $("money").innerHTML = v.seats.map((s) => `<tr class="${m && m.seat === s.seat ? "mine" : ""}"><td>${esc(seatName(v, s.seat))}${m && m.seat === s.seat ? " (" + esc(t("you")) + ")" : ""}</td><td>${money(s.money)}</td></tr>`).join("");
  $("standings-box").hidden = !v.standings.length;
  $("standings").innerHTML = v.standings.map((s) => `<li>${esc(seatName(v, s.seat))} · ${money(s.money)}<div class="tag">${esc((s.lines || {})[lang] || s.line)}</div></li>`).join("");
}

function drawCall(v) {
  const lines = v.call.slice().reverse().map((l) => `<li>${esc(l)}</li>`);
  if (v.notice) lines.unshift(`<li class="tag">${esc(v.notice)}</li>`);
  $("call-box").hidden = !lines.length;
  $("call").innerHTML = lines.join("");
}

connect();
