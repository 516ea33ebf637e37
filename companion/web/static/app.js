// Hot Streak phone page: follows the table over a WebSocket (every message is the whole view), claims a seat,
// shows the seat's tickets with what they pay on average, the stacks at its pick, and places open-variant bets.
// It draws the track as the screen does (an SVG) in the screen's palette (/static/palette.css). It shows words
// only: never a card notation, a label code or a refusal's engine detail. No build step.
"use strict";
// The page's words come from the table: GET /api/words?lang=xx gives the [phone] section of the phrase catalogue
// (sounds/phrases/<lang>.toml); the page holds no phrase table of its own.
let T = {}, wordsLang = "", wordsWanted = "";
const MASCOTS = ["gobbler", "hurley", "dangle", "mum"];
const KEY = "hotstreak-seat";
const JOIN = "hotstreak-join";  // the table's join code, from the QR code's URL (?join=) or typed
let lang = "en", view = null, ws = null, retry = 0, timer = 0, lastMessage = 0, choice = {};
let claimedAt = 0;  // when this phone's claim was answered: a view sent before it may not show the seat claimed yet
const CLAIM_GRACE_MS = 10000;

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const cap = (m) => m.charAt(0).toUpperCase() + m.slice(1);
const money = (x) => (x < 0 ? "-$" : "$") + Math.abs(x);
// The side bet's question in the page's language (the English text when no other is known).
function question(sb) { return (sb.questions || {})[lang] || sb.question; }

function t(key, args) {
  let s = T[key] ?? key;
  for (const [k, v] of Object.entries(args || {})) s = s.replace("{" + k + "}", v);
  return s;
}
function loadWords(l) {  // the page's words in language l, from the table; the view is drawn again when they come
  if (wordsWanted === l) return;
  wordsWanted = l;
  fetch("/api/words?lang=" + encodeURIComponent(l))
    .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
    .then((w) => { if (l === lang) { T = w; wordsLang = l; if (view) render(view); } })
    .catch(() => {  // tried again in a moment
      if (wordsWanted === l) { wordsWanted = ""; setTimeout(() => { if (view) render(view); }, 2000); }
    });
}
function mine() { try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; } }
function setMine(v) { v ? localStorage.setItem(KEY, JSON.stringify(v)) : localStorage.removeItem(KEY); }
function joinCode() { return ($("join-key").hidden ? "" : $("join-key").value.trim()) || localStorage.getItem(JOIN) || ""; }
function setJoin(code) { code ? localStorage.setItem(JOIN, code) : localStorage.removeItem(JOIN); showJoin(); }
function showJoin() { $("join-key").hidden = !!localStorage.getItem(JOIN); }
(function takeJoin() {  // the QR code's ?join=CODE: kept on the phone, gone from the address bar (and its history)
  const code = new URLSearchParams(location.search).get("join");
  if (code) { localStorage.setItem(JOIN, code.slice(0, 16)); history.replaceState(null, "", location.pathname); }
})();

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
    answer = await r.json().catch(() => ({ok: false}));
    if (answer.need === "join") {  // no join code, or last game's: ask for the one on the screen
      setJoin(null); answer.line = t("need_join");
    } else if (r.status === 403 && body.token && body.seat === (mine() || {}).seat && answer.reason === "not-yours") {
      setMine(null); answer.line = t("again");  // a token of another journal or claim: pick the seat again
    }
  } catch (e) { answer = {ok: false, line: t("offline")}; }
  if (!answer.ok) notice(answer.line || t("refused"));  // the reason's words; the engine's detail stays in the log
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
  const join = joinCode();
  const a = await post("/api/claim", locked ? {seat, name, join, code: $("join-code").value} : {seat, name, join});
  if (a.ok) { setJoin(join); setMine({seat: a.seat, token: a.token}); claimedAt = Date.now(); $("notice").hidden = true; if (view) render(view); }
});
$("rename-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const m = mine(); if (!m) return;
  const a = await post("/api/claim", {seat: m.seat, token: m.token, name: $("rename-name").value, join: joinCode()});
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
  if (wordsLang !== lang) { loadWords(lang); if (!wordsLang) return; }  // drawn once the page has its words
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  $("join-name").placeholder = t("name"); $("rename-name").placeholder = t("name");
  $("join-code").placeholder = t("code"); $("join-key").placeholder = t("join_code");
  $("race-no").textContent = v.players ? t("race_of", {n: v.race, m: v.races}) : "";
  drawSeat(v);  // first: it drops a seat this phone no longer holds (the Dealer, a new game) before "Your pick!"
  let phase = t(v.phase);
  if (v.phase === "new-game") phase += " · " + t("no_game");
  if (v.whose_pick) {
    const m = mine();
    phase = m && m.seat === v.whose_pick ? t("your_pick") : t("picks", {name: seatName(v, v.whose_pick)});
  }
  $("phase").textContent = phase;
  drawPick(v); drawRace(v); drawOdds(v); drawSide(v); drawMoney(v); drawCall(v);
  $("address").textContent = v.address || "";
}
function showCode() {  // a seat the table plays is claimed with the code shown beside it on the screen
  const s = view && view.seats[Number($("join-seat").value) - 1];
  $("join-code").hidden = !(s && s.locked);
}
$("join-seat").addEventListener("change", showCode);
showJoin();
function seatName(v, n) { const s = v.seats[n - 1]; return s && s.named ? s.name : t("seat", {n}); }

function drawSeat(v) {
  let m = mine();
  const seat = m && v.seats[m.seat - 1];
  if (m && seat && seat.claimed) claimedAt = 0;  // the table shows the claim: from now on the view decides
  const fresh = claimedAt && Date.now() - claimedAt < CLAIM_GRACE_MS && seat;
  if (m && v.players && (!seat || !seat.claimed) && !fresh) {  // the claim is gone (the Dealer, a new game, undo)
    if (seat && seat.taken_back) notice(t("dealer"));
    setMine(null); m = null;
  }
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
    const sel = $("join-seat"), want = wordsLang + "|" + v.seats.map((s) => `${s.seat}:${s.claimed}:${s.name}:${s.locked}`).join("|");
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

// ----- the pick: the stacks to draft from, what each top ticket pays and is worth on average ---------------
function chip(stack, text) { return `<span class="chip ${stack}">${esc(text)}</span>`; }
function stackName(stack) { return stack === "yes" || stack === "no" ? t(stack) : cap(stack); }
function drawPick(v) {
  const m = mine();
  const show = !!(m && v.phase === "betting" && v.variant === "standard" && v.whose_pick === m.seat &&
    v.stacks && v.stacks.length);
  $("pick").hidden = !show;
  if (!show) return;
  const evs = v.stacks.flatMap((st) => Object.values(st.ev || {}).filter((x) => typeof x === "number"));
  const best = evs.length ? Math.max(...evs) : null;
  const evCell = (x) => typeof x === "number"
    ? `<td class="ev${x === best ? " best" : ""}">$${x.toFixed(1)}</td>` : `<td class="ev">–</td>`;
  const dollars = (x, sign) => (x < 0 ? "-$" : sign && x > 0 ? "+$" : "$") + Math.abs(x);
  const table = (stacks, cols, cells) => {
    const head = `<tr><th>${esc(t("stack"))}</th><th></th>${cols.map((c) => `<th>${esc(c)}</th>`).join("")}<th>${esc(t("avg"))}</th></tr>`;
    const body = stacks.map((st) => {
      const name = `<td class="who" rowspan="${st.top ? 2 : 1}">${chip(st.stack, stackName(st.stack))}` +
        `<div class="sub">${esc(st.top ? t(st.top) + " · " + t("left", {n: st.left}) : t("empty"))}</div></td>`;
      if (!st.top) return `<tr class="stack" data-stack="${st.stack}">${name}<td colspan="${cols.length + 2}"></td></tr>`;
      return ["safe", "risky"].map((side, i) => `<tr class="${i ? "risky" : "stack"}" data-stack="${st.stack}">${i ? "" : name}` +
        `<td class="side">${esc(t(side))}</td>${cells(st.pays[side]).map((c) => `<td>${c}</td>`).join("")}${evCell(st.ev[side])}</tr>`).join("");
    }).join("");
    return `<table class="pays">${head}${body}</table>`;
  };
  const mascots = v.stacks.filter((st) => MASCOTS.includes(st.stack));
  const sides = v.stacks.filter((st) => !MASCOTS.includes(st.stack));
  let html = table(mascots, t("places").slice(0, 3), (p) => p.slice(0, 3).map((x) => dollars(x)));
  if (sides.length) {
    html += `<div class="label">${esc(t("side_stacks"))}</div>` + (v.side_bet ? `<div class="question">${esc(question(v.side_bet))}</div>` : "");
    html += table(sides, [t("right"), t("wrong")], (p) => p.map((x) => dollars(x, true)));
  }
  $("stacks").innerHTML = html;
}

// ----- the track, drawn as the screen draws it ----------------------------------------------------------
const CELL_W = 24, CELL_H = 30, LANE_COL = 14, NUM_ROW = 15;
function disc(cx, cy, r, name, o = {}) {  // a mascot: body in its colour, nose toward where it faces, its letter
  const fill = o.out ? "out" : name, d = o.facing === "backward" ? -1 : 1, f = (x) => x.toFixed(1);
  const letter = name[0].toUpperCase(), stroke = Math.max(1, r / 8);
  let s = "";
  if (o.fallen) {  // lying flat
    const ey = cy + r / 3;
    s += `<polygon class="f-${fill}" points="${f(cx + d * r * 1.05)},${f(ey - r / 3)} ${f(cx + d * r * 1.45)},${f(ey)} ${f(cx + d * r * 1.05)},${f(ey + r / 3)}"/>`;
    s += `<ellipse class="f-${fill} edge" cx="${f(cx)}" cy="${f(ey)}" rx="${f(r * 1.05)}" ry="${f(r * 0.6)}" stroke-width="${f(stroke)}"/>`;
    s += `<text class="ink-${fill}" x="${f(cx)}" y="${f(ey)}" font-size="${f(r * 0.95)}" transform="rotate(${90 * d} ${f(cx)} ${f(ey)})">${letter}</text>`;
  } else {
    s += `<polygon class="f-${fill}" points="${f(cx + d * r * 0.75)},${f(cy - r * 0.55)} ${f(cx + d * r * 1.45)},${f(cy)} ${f(cx + d * r * 0.75)},${f(cy + r * 0.55)}"/>`;
    s += `<circle class="f-${fill} edge" cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" stroke-width="${f(stroke)}"/>`;
    s += `<text class="ink-${fill}" x="${f(cx)}" y="${f(cy)}" font-size="${f(r * 1.2)}">${letter}</text>`;
  }
  if (o.ring) s += `<circle class="ring" cx="${f(cx)}" cy="${f(cy)}" r="${f(r * 1.5)}" stroke-width="${f(Math.max(1.5, r / 5))}"/>`;
  if (o.out) {
    const k = r * 0.95, w = f(Math.max(1.5, r / 4));
    s += `<path class="cross" stroke-width="${w}" d="M${f(cx - k)},${f(cy - k)}L${f(cx + k)},${f(cy + k)}M${f(cx - k)},${f(cy + k)}L${f(cx + k)},${f(cy - k)}"/>`;
  }
  return `<g class="mascot" data-mascot="${name}"${o.fallen ? ' data-fallen="1"' : ""}${o.out ? ' data-out="1"' : ""}>${s}</g>`;
}
function miniDisc(name, o) {
  return `<svg class="mini" viewBox="-13 -13 26 26" aria-hidden="true">${disc(0, 0, 8.5, name, o)}</svg>`;
}
function star(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + i * Math.PI / 5, k = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + k * Math.cos(a)).toFixed(1)},${(cy + k * Math.sin(a)).toFixed(1)}`);
  }
  return `<polygon class="star" points="${pts.join(" ")}"/>`;
}
function trackSvg(v) {
  const tr = v.track, folds = v.folds || 0;
  const edge = folds > 0 ? tr.fold_lines[Math.min(folds, tr.fold_lines.length) - 1] : 1;
  const W = LANE_COL + tr.spaces * CELL_W, H = tr.lanes * CELL_H, X = (s) => LANE_COL + (s - 1) * CELL_W, Y = (l) => (l - 1) * CELL_H;
  const stars = new Set(tr.stars || []), stretch = tr.final_stretch || tr.spaces + 1;
  const out = [];
  for (let lane = 1; lane <= tr.lanes; lane++) {
    for (let s = 1; s <= tr.spaces; s++) {
      const kind = s < edge ? "folded" : (s >= stretch ? "stretch" : "track") + (s % 2 ? "-alt" : "");
      out.push(`<rect class="sp ${kind}" x="${X(s)}" y="${Y(lane)}" width="${CELL_W}" height="${CELL_H}"/>`);
      if (s >= edge && stars.has(s)) out.push(star(X(s) + CELL_W * 0.2, Y(lane) + CELL_H * 0.17, 3.6));
    }
    out.push(`<text class="num" x="${LANE_COL / 2}" y="${Y(lane) + CELL_H / 2}">${lane}</text>`);
  }
  for (let lane = 2; lane <= tr.lanes; lane++) out.push(`<line class="lane-line" x1="${LANE_COL}" y1="${Y(lane)}" x2="${W}" y2="${Y(lane)}"/>`);
  for (let s = 1; s <= tr.spaces; s++) out.push(`<text class="num" x="${X(s) + CELL_W / 2}" y="${H + NUM_ROW / 2 + 1}">${s}</text>`);
  tr.fold_lines.forEach((first, k) => {
    const cls = first <= edge && k < folds ? "fold done" : "fold";
    out.push(`<line class="${cls}" x1="${X(first)}" y1="0" x2="${X(first)}" y2="${H}"/>`);
  });
  const fx = tr.finish_space < tr.spaces ? X(tr.finish_space + 1) : W, sq = 4;  // the chequered finish line
  for (let i = 0; i * sq < H; i++) {
    for (let j = 0; j < 2; j++) {
      out.push(`<rect class="${(i + j) % 2 ? "chq-dark" : "chq-light"}" x="${fx - sq + j * sq}" y="${i * sq}" width="${sq}" height="${Math.min(sq, H - i * sq)}"/>`);
    }
  }
  out.push(`<rect class="edge-line" x="${LANE_COL}" y="0" width="${W - LANE_COL}" height="${H}"/>`);
  const cells = {};
  for (const m of v.mascots) {
    if (m.status === "racing" && m.lane >= 1 && m.lane <= tr.lanes && m.space >= 1 && m.space <= tr.spaces) {
      (cells[m.lane + ":" + m.space] ||= []).push(m);
    }
  }
  const moved = v.last_card && v.last_card.mascot;
  for (const ms of Object.values(cells)) {
    const n = ms.length, r = Math.min(CELL_W / (n + 0.4) / 2, CELL_H * 0.3);
    ms.forEach((m, j) => {
      const cx = X(m.space) + CELL_W * (j + 1) / (n + 1), cy = Y(m.lane) + CELL_H / 2;
      out.push(disc(cx, cy, r, m.mascot, {fallen: m.fallen, facing: m.facing, ring: m.mascot === moved}));
    });
  }
  const said = v.order.map((name) => {
    const m = v.mascots.find((x) => x.mascot === name);
    return cap(name) + " " + (m.status === "racing" ? t("space", {s: m.space}) : m.status === "dq" ? t("out") : t("finish"));
  }).join(", ");
  return `<svg id="track-svg" viewBox="-1 -1 ${W + 2} ${H + NUM_ROW + 2}" role="img" aria-label="${esc(said)}">${out.join("")}</svg>`;
}

function drawRace(v) {
  $("track").innerHTML = trackSvg(v);
  $("pass").textContent = v.phase === "racing" || v.phase === "payouts" ? t("pass", {p: v.pass, r: v.revealed, t: v.per_pass}) : "";
  const c = v.last_card;
  $("last-card").innerHTML = c ? `${esc(t("last_card"))}: ${chip(c.mascot || "green", c.mascot ? cap(c.mascot) : t("all"))} ` +
    `<span class="card-words">${esc((c.words || {})[lang] || (c.words || {}).en || "")}</span>` : "";
  const place = {}; for (const [m, p] of v.podium) place[m] = p;
  $("order").innerHTML = v.order.map((name) => {
    const m = v.mascots.find((x) => x.mascot === name);
    const out = m.status === "dq";
    let tag = place[name] ? t("places")[place[name] - 1] : t("space", {s: m.space});
    if (out) tag = t("out") + (place[name] ? " · " + t("places")[place[name] - 1] : "");
    else if (m.fallen && m.status === "racing") tag += " · " + t("fallen");
    return `<li data-mascot="${name}">${miniDisc(name, {out, fallen: m.fallen && !out, facing: m.facing})}<span>${cap(name)}</span><span class="tag">${esc(tag)}</span></li>`;
  }).join("");
}

// ----- the odds: each mascot's chance of being paid 1st, 2nd, 3rd, for the card they were made after ------
function drawOdds(v) {
  $("odds-box").hidden = !v.odds;
  if (!v.odds) return;
  const when = v.odds_card ? t("odds_after", {n: v.odds_card}) : t("odds_before");
  $("odds-when").textContent = when + (v.odds_stale ? " · " + t("updating") : "");
  $("odds").classList.toggle("stale", !!v.odds_stale);
  const head = `<tr><th></th>${t("places").slice(0, 3).map((p) => `<th>${esc(p)}</th>`).join("")}</tr>`;
  $("odds").innerHTML = head + MASCOTS.filter((m) => v.odds[m]).map((m) =>
    `<tr data-mascot="${m}"><td>${miniDisc(m, {})}${cap(m)}</td>${v.odds[m].slice(0, 3).map((p) => `<td>${Math.round(p * 100)}%</td>`).join("")}</tr>`).join("");
}

function drawSide(v) {
  $("side-box").hidden = !v.side_bet;
  if (!v.side_bet) return;
  const h = v.side_bet.happened;
  $("side").innerHTML = `${esc(question(v.side_bet))}<div class="tag">${esc(h === true ? t("happened") : h === false ? t("not_happened") : t("open"))}</div>`;
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
