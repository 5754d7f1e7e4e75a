// The Durak table as a Telegram Mini App. The server decides everything: this page draws the frames it is
// sent ({"type": "state"}) and sends the presses its frame offers ({"type": "press", "data": <callback data>}).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
  const SUIT_SIGN = /([♠♣♦♥])\uFE0F?/g;
  const NS = "http://www.w3.org/2000/svg";
  const TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js";
  const MARK_TEXT = { play: "playable", pick: "playable", picked: "picked", dim: "dim", idle: "idle" };  // for screen readers
  const ANSWER_MS = 5000;  // a press unanswered this long: the connection is dead though the socket did not say so
  // What Telegram puts in the page's address: the signed initData and the theme, there before its script loads.
  const launch = new URLSearchParams(location.hash.slice(1));
  const embedded = JSON.parse($("texts").textContent);
  let tg = (window.Telegram && window.Telegram.WebApp) || null;
  let texts = embedded.texts[languageOf(launchLanguage())];
  let socket = null, session = null, state = null, received = 0, retry = 500, closedForGood = false, refusal = "";
  let route = "";  // the path of the bot process that decides this game, when another one sent the page there
  let online = false, held = null, answerTimer = 0, pressId = 0, resentId = 0, wasActing = false, confirming = null;
  let fourColours = localStorage.getItem("durak.four") === "1";
  const shownPairs = new Set();
  const reviewing = new URLSearchParams(location.search).get("review") === "1";  // the game's review, not the game
  let review = null, step = 0, option = null, retrying = false;  // the review frame, the position shown, a move tried
  let reveal = false;  // the review shows every hand (the game is over)
  const tries = {};    // per marked move of his: the move he tried first to find a better one (-1: he asked the answer)
  const puzzleAt = Number(new URLSearchParams(location.search).get("puzzle")) || 0;  // /puzzle's move, shown first
  let solved = null;   // the puzzle's verdict: {lines, best} once answered

  function languageOf(code) {
    const base = String(code || "").split("-")[0].toLowerCase();
    return embedded.texts[base] ? base : embedded.aliases[base] || "en";
  }

  function launchLanguage() {  // the Telegram user's language, before the first frame brings his chosen one
    try { return JSON.parse(new URLSearchParams(initData()).get("user") || "{}").language_code || navigator.language; }
    catch { return navigator.language; }
  }

  function svg(tag, attrs, text) {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // The server's words, with each suit sign drawn as a text glyph in the page's suit colours (the chat's
  // emoji suits are dark grey on a dark theme).
  function words(el, text) {
    const parts = String(text || "").split(SUIT_SIGN);
    el.replaceChildren(...parts.map((part, i) => i % 2 === 0 ? part :
      Object.assign(document.createElement("span"), { className: "suit " + suitLetter(part), textContent: part + "\uFE0E" })));
    return el;
  }
  function suitLetter(sign) { return Object.keys(SUITS).find((k) => SUITS[k] === sign); }
  // A card's whole name for screen readers ("queen of hearts", «дама червей»), and a face card's letter as the
  // reader chose (/letters: J Q K A, or his country's В Д К Т, B D K A).
  const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  function cardName(code) {
    const rank = code.slice(0, -1), suit = code.slice(-1);
    const r = String(texts.rank_names || "").split("|")[RANK_ORDER.indexOf(rank)];
    const s = String(texts.suit_names || "").split("|")["SCDH".indexOf(suit)];
    return r && s && texts.card_name ? texts.card_name.replace("{rank}", r).replace("{suit}", s) : face(rank) + SUITS[suit];
  }
  function face(rank) {
    const i = "JQKA".indexOf(rank);
    return i < 0 ? rank : (String(texts.faces || "J Q K A").split(" ")[i] || rank);
  }

  function ink(suit) {
    if (fourColours) return { S: "#1b1b1b", C: "#18792f", D: "#1d5bc0", H: "#c4221d" }[suit];
    return suit === "D" || suit === "H" ? "#c4221d" : "#1b1b1b";
  }

  // One card, drawn: rank and suit in two corners, the suit large in the middle; or its back. A card that can
  // be tapped is a button, named for screen readers ("Q♥, playable").
  function card(code, extra, label) {
    const box = document.createElement(label ? "button" : "div");
    box.className = "card" + (extra ? " " + extra : "");
    if (label) { box.type = "button"; box.setAttribute("aria-label", label); }
    else if (code) { box.setAttribute("role", "img"); box.setAttribute("aria-label", cardName(code)); }
    else box.setAttribute("aria-hidden", "true");
    if (code) box.dataset.card = code;
    box.append(picture(code));
    return box;
  }

  // Each card's picture is drawn once (in the colours and letters of the moment) and copied after: a frame
  // redraws dozens of cards, and building each anew was most of a frame's time on a slow phone.
  const drawn = new Map();
  function picture(code) {
    const key = (code || "back") + "|" + fourColours + "|" + (texts.faces || "");
    let s = drawn.get(key);
    if (!s) {
      s = svg("svg", { viewBox: "0 0 60 84", "aria-hidden": "true" });
      // its shadow in the picture: a CSS filter per card cost much of each frame's paint
      s.append(svg("rect", { x: 1, y: 2, width: 58, height: 82, rx: 6, fill: "#000", "fill-opacity": 0.3 }));
      if (!code) {
        s.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#3b5ea8", stroke: "#fff", "stroke-width": 2 }));
        s.append(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill: "none", stroke: "#8fa8e0", "stroke-width": 1.5 }));
      } else {
        const rank = face(code.slice(0, -1)), suit = code.slice(-1), fill = ink(suit), glyph = SUITS[suit] + "\uFE0E";
        s.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#fff", stroke: "#999" }));
        s.append(svg("text", { class: "rank", x: 4, y: 17, "font-size": 16, "font-weight": 700, fill,
                               "font-family": "system-ui, sans-serif", "letter-spacing": rank.length > 1 ? -1 : 0 }, rank));
        s.append(svg("text", { class: "suit", x: 5, y: 32, "font-size": 14, fill }, glyph));
        s.append(svg("text", { x: 34, y: 62, "font-size": 30, fill, "text-anchor": "middle" }, glyph));
        s.append(svg("text", { x: 55, y: 79, "font-size": 15, "font-weight": 700, fill, "text-anchor": "end",
                               transform: "rotate(180 48 74)", "font-family": "system-ui, sans-serif" }, rank));
      }
      drawn.set(key, s);
    }
    return s.cloneNode(true);
  }

  function verbOf(data) { return data ? data.split(":")[1] : ""; }

  // ------------------------------------------------------------------ presses, and the connection under them

  function send(frame) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  function press(data) {
    if (!data) return;
    if (!online) {  // kept, and sent when the table is back if the game still offers it
      held = data;
      toast(texts.held);
      haptic("error");
      if (!socket && !closedForGood) { retry = 500; connect(); }
      return;
    }
    send({ type: "press", data, id: ++pressId });
    clearTimeout(answerTimer);
    answerTimer = setTimeout(() => lost(socket), ANSWER_MS);  // a dead network may take long to close it
  }

  function offered(data, st) {
    return (st.hand || []).some((h) => h.press === data) || (st.buttons || []).some((b) => b.press === data);
  }

  function setOnline(on) {
    online = on;
    $("app").classList.toggle("offline", !on && !!state);
    const net = $("net");
    net.hidden = on || closedForGood || !state;
    net.textContent = texts.offline;
  }

  let toastTimer = 0;
  function toast(text) {
    const el = words($("toast"), text);
    el.classList.add("on");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => el.classList.remove("on"), 2800);
  }

  function haptic(kind) {
    const h = tg && tg.HapticFeedback;
    if (!h) return;
    if (kind === "error") h.notificationOccurred("error"); else h.impactOccurred("medium");
  }

  // ------------------------------------------------------------------ drawing a frame

  // All reads of the page before any write: a read after a write forces a layout (a slow phone's worst cost).
  function draw() {
    const st = state;
    const was = where(st);
    const app = $("app");
    app.classList.toggle("empty", st.status === "closed");
    app.classList.toggle("lobby", st.status === "lobby");
    if (app.className !== drawnAs) { drawnAs = app.className; handSize = null; }  // another layout: measure the hand anew
    if (changed("rules", st.rules)) words($("rules"), st.rules || "");
    drawSeats(st);
    drawDeck(st);
    drawTable(st, was);
    deal(st, was);
    if (changed("moves", st.moves)) drawMoves(st.moves || []);
    if (changed("prompt", st.prompt)) words($("prompt"), st.prompt || "");
    drawResult(st);
    const leave = st.status === "playing" && (st.buttons || []).find((b) => verbOf(b.press) === "l");
    $("leave").hidden = !leave;
    if (leave) { $("leave").dataset.press = leave.press; $("leave").setAttribute("aria-label", leave.text); $("leave").title = leave.text; }
    const shown = (st.buttons || []).filter((b) => b !== leave);
    if (changed("buttons", shown.map((b) => [b.text, b.row, verbOf(b.press)]), st.status, st.invite, st.share)) {
      drawButtons(st, shown);
    } else {  // the same buttons: only what each presses (its move number) changed
      $("buttons").querySelectorAll("button[data-press]").forEach((el, i) => { el.dataset.press = shown[i].press; });
    }
    drawHand(st);
    const me = st.you === null || st.you === undefined ? null : st.seats[st.you];
    const acting = !!(me && me.acting && st.status === "playing");
    if (acting && !wasActing) haptic("turn");
    wasActing = acting;
    if (tg && acting !== confirming) {  // Telegram asks before closing the page mid-turn
      confirming = acting;
      acting ? tg.enableClosingConfirmation() : tg.disableClosingConfirmation();
    }
    tick();
  }

  // The move log scrolls: lines gone from its top removed, new ones added.
  let logShown = { look: -1, lines: [] };
  function drawMoves(lines) {
    const box = $("moves"), old = logShown.look === look ? logShown.lines : [];
    let k = 0;  // the lines gone from the top
    while (k < old.length && !old.slice(k).every((line, i) => line === lines[i])) k++;
    if (k === old.length) box.replaceChildren();
    else for (let i = 0; i < k; i++) box.firstElementChild.remove();
    box.append(...lines.slice(old.length - k).map((line) => words(document.createElement("li"), line)));
    logShown = { look, lines: [...lines] };
  }

  // A tap leaves the focus alone: a focused element removed by the next frame forced a layout mid-redraw.
  function keepFocus(event) { event.preventDefault(); }

  function drawButtons(st, shown) {
    const rows = new Map();  // the chat keyboard's rows, where the frame keeps them (the lobby's)
    for (const b of shown) {
      const el = words(document.createElement("button"), b.text);
      el.type = "button";
      el.dataset.press = b.press;
      if (["z", "q", "h", "a", "i", "l", "x", "b"].includes(verbOf(b.press))) el.className = "secondary";
      el.addEventListener("click", () => press(el.dataset.press));
      el.addEventListener("mousedown", keepFocus);
      if (!rows.has(b.row)) rows.set(b.row, Object.assign(document.createElement("div"), { className: "row" }));
      rows.get(b.row).append(el);
    }
    if (st.invite && tg && tg.shareMessage && tg.isVersionAtLeast && tg.isVersionAtLeast("8.0")) {
      const invite = Object.assign(document.createElement("button"), { type: "button", className: "secondary",
                                                                       id: "invite", textContent: texts.invite });
      invite.addEventListener("click", () => send({ type: "invite" }));  // Telegram lets him pick the chat
      rows.set("invite", Object.assign(document.createElement("div"), { className: "row" }));
      rows.get("invite").append(invite);
    }
    if (st.share && tg && tg.shareMessage && tg.isVersionAtLeast && tg.isVersionAtLeast("8.0")) {
      const share = Object.assign(document.createElement("button"), { type: "button", className: "secondary",
                                                                      id: "share", textContent: texts.share });
      share.addEventListener("click", () => send({ type: "share" }));  // the result card, to a chat he picks
      rows.set("share", Object.assign(document.createElement("div"), { className: "row" }));
      rows.get("share").append(share);
    }
    $("buttons").replaceChildren(...rows.values());
  }

  // A part is rebuilt only when what it shows (or the page's colours or language) changed.
  let look = 0;
  const shownAs = new Map();
  function changed(part, ...what) {
    const key = look + JSON.stringify(what);
    if (shownAs.get(part) === key) return false;
    shownAs.set(part, key);
    return true;
  }

  // Where each seat sits around the felt: you at the bottom, the others in playing order from your left, the
  // first and last of four or more on the sides, the rest along the top (a watcher sees them all on top).
  function layout(n, you) {
    const others = [];
    for (let k = 1; k <= n; k++) if (you === null || (you + k) % n !== you) others.push(you === null ? k - 1 : (you + k) % n);
    const sides = others.length >= 3;
    const top = sides ? others.slice(1, -1) : others;
    const row = (cells) => '"' + cells.join(" ") + '"';
    const middle = Array(Math.max(top.length, 1)).fill("felt");
    const rows = [row([...(sides ? ["."] : []), ...(top.length ? top.map((i) => "s" + i) : ["."]), ...(sides ? ["."] : [])]),
                  row([...(sides ? ["s" + others[0]] : []), ...middle, ...(sides ? ["s" + others[others.length - 1]] : [])])];
    if (you !== null) rows.push(row(Array(middle.length + (sides ? 2 : 0)).fill("s" + you)));
    const where = (i) => i === you ? "me" : sides && (i === others[0] || i === others[others.length - 1]) ? "side" : "top";
    return { areas: rows.join(" "), columns: (sides ? "minmax(64px, auto) " : "") + `repeat(${middle.length}, minmax(0, 1fr))` + (sides ? " minmax(64px, auto)" : ""), where };
  }

  function fan(n) {  // his hand as card backs, as wide as it holds cards (eight at most drawn), the number beside
    const el = Object.assign(document.createElement("span"), { className: "fan" });
    el.style.setProperty("--n", Math.min(n, 8));
    for (let k = 0; k < Math.min(n, 8); k++) el.append(document.createElement("i"));
    return el;
  }

  function drawSeats(st) {
    const you = st.you === null || st.you === undefined ? null : st.you;
    const box = $("seats");
    const shown = (i) => st.shown && !st.seats[i].you ? st.shown[i] : null;  // the review, every hand shown
    const around = changed("seats", st.seats.length, you);
    if (around) {
      const plan = layout(st.seats.length, you);
      box.style.gridTemplateAreas = plan.areas;
      box.style.gridTemplateColumns = plan.columns;
      box.replaceChildren(...st.seats.map((s, i) => seat(s, i, plan.where(i), shown(i))), $("middle"));
    }
    const els = box.querySelectorAll(".seat");
    st.seats.forEach((s, i) => {  // a new face rebuilds the seat; turn, role and cards change in place
      const face = changed("seat" + i, s.name, s.photo, s.computer, s.you, shown(i));
      const now = changed("seat-now" + i, s.acting, s.role, s.cards);
      if (around) return;
      if (face) els[i].replaceWith(seat(s, i, els[i].dataset.where, shown(i)));
      else if (now) seatNow(els[i], s);
    });
  }

  function seat(s, i, where, shown) {
    const el = document.createElement("div");
    el.dataset.where = where;
    el.style.gridArea = "s" + i;
    el.setAttribute("role", "group");
    const ring = svg("svg", { class: "ring", viewBox: "0 0 36 36", "aria-hidden": "true" });
    ring.append(svg("circle", { class: "track", cx: 18, cy: 18, r: 16 }));
    ring.append(svg("circle", { class: "left", cx: 18, cy: 18, r: 16, "stroke-dasharray": 100.5, "stroke-dashoffset": 100.5 }));
    ring.append(svg("text", { x: 18, y: 18 }, s.computer ? "🤖" : (s.name[0] || "?").toUpperCase()));
    if (s.photo) {  // his Telegram photo over his initial (which shows if it does not load)
      const clip = svg("clipPath", { id: "photo" + i });
      clip.append(svg("circle", { cx: 18, cy: 18, r: 14 }));
      const img = svg("image", { href: s.photo, x: 4, y: 4, width: 28, height: 28, "clip-path": `url(#photo${i})`,
                                 preserveAspectRatio: "xMidYMid slice", class: "photo" });
      img.addEventListener("error", () => img.remove());
      ring.append(clip, img);
    }
    const who = document.createElement("div");
    who.className = "who";
    const name = Object.assign(document.createElement("span"), { className: "name", textContent: s.name });
    const role = Object.assign(document.createElement("span"), { className: "role" });
    who.append(name, role);
    const count = document.createElement("span");
    count.className = "count";
    count.setAttribute("aria-hidden", "true");
    if (shown) who.append(words(Object.assign(document.createElement("span"), { className: "cards" }),
      shown.length ? shown.map((c) => face(c.slice(0, -1)) + SUITS[c.slice(-1)]).join(" ") : "–"));
    el.append(ring, who, count);
    seatNow(el, s);
    return el;
  }

  function seatNow(el, s) {  // his turn, his role and his cards
    el.className = "seat " + el.dataset.where + (s.you ? " you" : "") + (s.acting ? " acting" : "");
    el.setAttribute("aria-label", texts.seat_label.replace("{name}", s.name).replace("{n}", s.cards === null ? "–" : s.cards)
      .replace("{role}", s.role || ""));
    el.querySelector(".role").textContent = s.role;
    el.querySelector(".count").replaceChildren(...(s.cards !== null ? [fan(s.cards), String(s.cards)] : []));
  }

  function drawDeck(st) {
    if (!changed("deck", st.stock, st.trump_card, st.discard, st.trump_text)) return;
    $("pile").hidden = !st.stock;
    $("trump").replaceChildren(...(st.trump_card && st.stock ? [card(st.trump_card)] : []));
    $("stock").replaceChildren(...(st.stock > 1 || (st.stock === 1 && !st.trump_card) ? [card(null)] : []));
    const counts = [];
    if (st.stock) counts.push(texts.stock + " " + st.stock);
    if (st.discard) counts.push(texts.discard + " " + st.discard);
    $("counts").replaceChildren(...counts.map((text) => Object.assign(document.createElement("span"), { textContent: text })));
    const discard = $("discard");  // the beaten cards: a squared stack of backs, its count on it
    discard.hidden = !st.discard;
    discard.setAttribute("aria-hidden", "true");  // its count is read in #counts
    discard.replaceChildren(...(st.discard ? [card(null), card(null), card(null),
      Object.assign(document.createElement("b"), { textContent: String(st.discard) })] : []));
    words($("trumpline"), st.trump_text || "");
  }

  // Motion: a bout leaving the table goes somewhere (beaten, to the discard; taken, to the taker's seat), a card
  // laid by another comes down from the seats, one of his own up from the hand; none blocks a tap, none at all
  // where the system asks for reduced motion.
  let before = { taking: false, defender: null, mine: new Set(), live: false };
  const still = () => !!(window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);

  function sweep(leaving, end) {  // the table's cards, as they were drawn, go to ``end``
    for (const [c, from] of leaving) fly(c, from, end, 0, 0.45, true, "sweep");
  }

  // A picture (``el``) going from one place on the screen to another, shrinking to ``scale`` (fading on the way
  // if ``fade``), ``delay`` ms after the others before it; transforms only, so the page's layout never moves.
  function fly(el, from, end, delay, scale, fade, kind) {
    el.classList.add("ghost");
    el.dataset.motion = kind;
    el.setAttribute("aria-hidden", "true");
    el.removeAttribute("data-card");  // a picture of a card on its way, no longer the card
    Object.assign(el.style, { left: from.left + "px", top: from.top + "px", width: from.width + "px", height: from.height + "px" });
    document.body.append(el);
    const to = `translate(${end.left + end.width / 2 - from.left - from.width / 2}px, ${end.top + end.height / 2 - from.top - from.height / 2}px) scale(${scale})`;
    // the browser's compositor moves it: no script and no layout on the way
    el.animate([{ transform: "none", opacity: 1 }, { transform: to, opacity: fade ? 0 : 0.6 }],
               { duration: 280, delay, easing: "ease-in", fill: "forwards" }).finished.then(() => el.remove(), () => el.remove());
  }

  // Dealing: the cards drawn from the stock fly to the seats that drew them (his own to his hand), one after
  // another; a transfer carries the defender's ring from the seat that passed the bout on to the new defender.
  let last = null;  // the last frame drawn: its stock, each seat's count, the defender, the cards on the table
  // Where the cards that move in frame ``st`` are, and where they go (seats, hand and discard stay put), read
  // before it redraws anything; null with reduced motion.
  function where(st) {
    if (still()) return null;
    const was = { pile: null, rings: [], leaving: [], seats: [], hand: null, discard: null };
    const rect = (el) => el.getBoundingClientRect();
    const defender = st.defender === undefined ? null : st.defender;
    const dealing = last && st.status === "playing" && (st.stock || 0) < last.stock && !$("pile").hidden;
    const passing = last && defender !== last.defender;
    const leaving = !(st.table || []).length && $("table").firstChild;
    if (!dealing && !passing && !leaving) return was;
    const seats = [...$("seats").querySelectorAll(".seat")];
    was.seats = seats.map(rect);
    was.hand = rect($("hand"));
    if (dealing) {
      const top = $("stock").querySelector(".card") || $("trump").querySelector(".card");
      was.pile = top ? rect(top) : null;
    }
    if (passing) was.rings = seats.map((el) => rect(el.querySelector(".ring")));
    if (leaving) {
      was.discard = rect($("discard").hidden ? $("deck") : $("discard"));  // the first beaten bout: where it will lie
      was.leaving = [...$("table").querySelectorAll(".card")].map((c) => [c.cloneNode(true), rect(c)]);
    }
    return was;
  }
  function deal(st, was) {
    const now = { stock: st.stock || 0, counts: (st.seats || []).map((s) => s.cards || 0),
                  defender: st.defender === undefined ? null : st.defender, table: (st.table || []).length };
    const prev = last;
    last = st.status === "playing" ? now : null;
    if (!prev || !was || st.status !== "playing") return;
    let left = prev.stock - now.stock, k = 0;
    if (left > 0 && was.pile) {
      st.seats.forEach((s, i) => {
        const drew = Math.min(left, Math.max(0, now.counts[i] - (prev.counts[i] || 0)));
        left -= drew;
        const to = s.you ? was.hand : was.seats[i];
        for (let j = 0; to && j < Math.min(drew, 6); j++) fly(card(null), was.pile, to, 70 * k++, 0.5, true, "deal");
      });
    }
    if (prev.defender !== null && now.defender !== null && prev.defender !== now.defender && prev.table > 0
        && now.table > prev.table && was.rings[prev.defender] && was.rings[now.defender]) {
      fly(Object.assign(document.createElement("div"), { className: "ring-ghost" }), was.rings[prev.defender],
          was.rings[now.defender], 0, 1, false, "ring");
    }
  }

  function drawTable(st, was) {
    const live = st.status === "playing" || st.status === "over";
    if (was && live && before.live && !(st.table || []).length) {
      const taker = before.taking && before.defender !== null ? was.seats[before.defender] : null;
      sweep(was.leaving, taker || was.discard);
    }
    const targets = new Map();  // a cover target on the table -> the press that covers it (chosen card first)
    for (const b of st.buttons || []) {
      if (verbOf(b.press) === "t") targets.set(b.press.split(":")[4].split(".")[1], b);
    }
    const covering = [...targets].map(([attack, b]) => [attack, b.press, b.text]);
    if (changed("table", st.table, covering)) drawPairs(st, targets);
    before = { taking: !!st.taking, defender: st.defender === undefined ? null : st.defender, live,
               mine: new Set((st.hand || []).map((h) => (h && h.card) || h)) };
  }

  function drawPairs(st, targets) {
    const pairs = (st.table || []).map(([attack, cover]) => {
      const el = document.createElement("div");
      const key = attack + "/" + (cover || "");
      el.className = "pair" + (shownPairs.has(key) ? "" : " new");
      shownPairs.add(key);
      const target = targets.get(attack);
      const a = card(attack, target ? "target" : "", target ? target.text : "");
      if (target) a.addEventListener("click", () => press(target.press));
      el.append(a);
      if (cover) el.append(card(cover, "cover"));
      const laid = cover || attack;
      if (el.classList.contains("new") && !before.mine.has(laid)) el.classList.add("theirs");
      return el;
    });
    if (!pairs.length) shownPairs.clear();
    $("table").replaceChildren(...pairs);
  }

  function drawResult(st) {
    if (!changed("result", st.result, st.left)) return;
    const el = words($("result"), (st.result || []).join("\n"));
    for (const left of st.left || []) {  // what the durak was left holding
      const box = Object.assign(document.createElement("div"), { className: "left" });
      box.append(words(document.createElement("div"), texts.durak_cards.replace("{name}", left.name)));
      const cards = Object.assign(document.createElement("div"), { className: "cards" });
      cards.append(...left.cards.map((code) => card(code)));
      box.append(cards);
      el.append(box);
    }
  }

  // The hand, laid out to fit the width: one row while each card shows at least its corner (rank and suit),
  // else as few rows as keep that true, each next row low enough to leave the corners above it in view.
  // Its width and a card's, read on a resize (ResizeObserver), never between a frame's writes.
  let handSize = null, drawnAs = null;
  function measureHand() {
    const box = $("hand");
    return { width: box.clientWidth, cw: parseFloat(getComputedStyle(box).getPropertyValue("--card-w")) || 56 };
  }

  function drawHand(st) {
    const hand = st.hand || [];
    const box = $("hand");
    if (!handSize) handSize = measureHand();
    const offer = (el, h) => {  // what a card of his offers: a move, or nothing (a tap says so)
      el.className = "card " + h.mark;
      el.setAttribute("aria-label", cardName(h.card) + ", " + texts[MARK_TEXT[h.mark]]);
      if (h.press) el.dataset.press = h.press; else delete el.dataset.press;
    };
    if (!changed("hand", hand.map((h) => h.card), handSize)) {  // the same cards where they were
      box.querySelectorAll(".card").forEach((el, i) => offer(el, hand[i]));
      return;
    }
    const { width, cw } = handSize, ch = cw * 1.4;
    // a card's corner (rank over suit) is the left 42 % of its width and the top 44 % of its height
    const raise = Math.round(cw * 0.2), cornerWidth = Math.ceil(cw * 0.42), cornerHeight = Math.ceil(ch * 0.44);
    const n = hand.length;
    const perRowMax = Math.max(1, Math.floor((width - cw) / cornerWidth) + 1);
    const rows = Math.max(1, Math.ceil(n / perRowMax));
    const perRow = Math.ceil(n / rows);
    // a gentle fan in one row; its edge cards lean out by `lean` pixels, kept inside the width
    const tilt = rows === 1 && n > 1 ? Math.min(3, 18 / n) : 0;
    const lean = Math.ceil(ch * Math.sin(tilt * (perRow - 1) / 2 * Math.PI / 180));
    const room = width - 2 * lean;
    const step = perRow > 1 ? Math.min(cw * 0.86, (room - cw) / (perRow - 1)) : 0;
    const rowStep = cornerHeight + raise + 2;  // a lifted card leaves the corners of the row above it in view
    // cards still held stay (moved), drawn ones are added, played ones removed: a tap never hits a replaced card
    if (box.dataset.look !== String(look)) { box.replaceChildren(); box.dataset.look = look; }  // new colours, letters
    const holding = new Set(hand.map((h) => h.card));
    const kept = new Map([...box.children].filter((el) => holding.has(el.dataset.card)).map((el) => [el.dataset.card, el]));
    let next = box.firstElementChild;
    const skipGone = () => { while (next && !holding.has(next.dataset.card)) next = next.nextElementSibling; };
    hand.forEach((h, i) => {
      const r = Math.floor(i / perRow), c = i % perRow;
      const inRow = r < rows - 1 ? perRow : n - perRow * (rows - 1);
      const left = (width - cw - step * (inRow - 1)) / 2 + c * step;
      const el = kept.get(h.card) || handCard(h.card);
      offer(el, h);
      el.style.left = left + "px";
      el.style.top = (raise * 1.6 + r * rowStep) + "px";
      el.style.setProperty("--tilt", ((c - (inRow - 1) / 2) * tilt) + "deg");
      skipGone();
      if (el === next) next = next.nextElementSibling;
      else box.insertBefore(el, next);
    });
    for (const el of [...box.children]) if (!holding.has(el.dataset.card)) el.remove();
    box.style.setProperty("--raise", raise + "px");
    box.style.height = n ? (raise * 1.6 + (rows - 1) * rowStep + ch + 4) + "px" : "0";
  }

  function handCard(code) {
    const el = card(code, "", cardName(code));
    el.addEventListener("click", () => el.dataset.press ? press(el.dataset.press) : haptic("error"));
    el.addEventListener("mousedown", keepFocus);
    el.addEventListener("pointerdown", () => el.classList.add("touch"));
    for (const end of ["pointerup", "pointercancel", "pointerleave"]) el.addEventListener(end, () => el.classList.remove("touch"));
    return el;
  }

  // The turn's time left, as a ring around the acting seats (counted from when the frame arrived).
  function tick() {
    if (!state || !state.seats) return;
    const t = state.timer;
    const part = t && t.total ? Math.max(0, t.left - (Date.now() - received) / 1000) / t.total : 0;
    document.querySelectorAll(".seat").forEach((el, i) => {
      const left = el.querySelector(".left");
      const on = state.seats[i] && state.seats[i].acting && t;
      left.setAttribute("stroke-dashoffset", on ? String(100.5 * (1 - part)) : "100.5");
    });
  }
  setInterval(tick, 250);

  // ------------------------------------------------------------------ the socket

  function initData() { return (tg && tg.initData) || launch.get("tgWebAppData") || ""; }

  function connect() {
    if (closedForGood || socket) return;
    if (!session && !initData()) { closeForGood(texts.outside); return; }  // a browser, not Telegram
    const url = new URL(route ? "ws/" + encodeURIComponent(route) : "ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.search = "";
    url.hash = "";
    const ws = socket = new WebSocket(url);
    ws.onopen = () => {
      performance.mark("open");
      const params = new URLSearchParams(location.search);
      const hello = session ? { type: "hello", session } : { type: "hello", init_data: initData(), game: params.get("g") || undefined };
      send(reviewing ? Object.assign(hello, { review: true }, puzzleAt ? { puzzle: puzzleAt } : {}) : hello);
    };
    ws.onmessage = (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type === "state") onState(frame);
      else if (frame.type === "review") onReview(frame);
      else if (frame.type === "solved") onSolved(frame);
      else if (frame.type === "answer") onAnswer(frame);
      else if (frame.type === "invite" || frame.type === "share") { if (frame.id) tg.shareMessage(frame.id); else toast(frame.text); }
      else if (frame.type === "error") refusal = frame.text || frame.reason;  // the close that follows says if for good
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      if (event.code === 4401 && session) { socket = null; session = null; setTimeout(connect, 100); return; }  // stale
      // its game is decided by another of the bot's processes: connect to that one at once
      if (event.code === 4307 && event.reason && event.reason !== route) { socket = null; refusal = ""; route = event.reason; connect(); return; }
      if (event.code === 4401 || event.code === 4403 || event.code === 4400) {
        socket = null;
        closeForGood(refusal || texts.offline);
        return;
      }
      lost(ws);
    };
  }

  // The connection is gone (the bot restarts, the network dropped): say so, and come back with the current game.
  function lost(ws) {
    if (!ws || socket !== ws) return;
    socket = null;
    route = "";  // the way back goes through whichever process answers: it sends the page on if need be
    clearTimeout(answerTimer);
    setOnline(false);
    ws.close();
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 4000);
  }

  // The page's own names for screen readers, in the player's language.
  function label() {
    $("colours").setAttribute("aria-label", texts.four_colours);
    $("colours").title = texts.four_colours;
    for (const [id, key] of [["seats", "seats"], ["table", "table"], ["hand", "hand"], ["moves", "moves"]]) {
      $(id).setAttribute("aria-label", texts[key]);
    }
  }

  function onState(frame) {
    retry = 500;
    if (frame.session) session = frame.session;
    if (frame.texts) { texts = frame.texts; look++; label(); }
    if (frame.language) document.documentElement.lang = frame.language;
    state = frame;
    received = Date.now();
    draw();
    // seen: while the page shows every move, the bot spares the player's hand message its edits
    if (!document.hidden) send({ type: "ack", n: frame.n });
    if (!performance.getEntriesByName("table").length) performance.mark("table");  // first drawn
    if (!online) {
      setOnline(true);
      const kept = held;
      held = null;
      if (kept && offered(kept, frame)) { press(kept); resentId = pressId; }
      else if (kept) toast(texts.dropped);
    }
  }

  // ------------------------------------------------------------------ the review

  function onReview(frame) {
    retry = 500;
    if (frame.session) session = frame.session;
    if (frame.texts) { texts = frame.texts; look++; label(); }
    if (frame.language) document.documentElement.lang = frame.language;
    if (!online) setOnline(true);
    if (!frame.steps) {  // still being made (asked again in a while), or a game from before reviews
      $("app").classList.add("empty");
      words($("prompt"), frame.text);
      if (frame.pending) setTimeout(() => send({ type: "sync" }), 5000);
      return;
    }
    const first = !review || (review.puzzle && !frame.puzzle);
    review = frame;
    $("app").classList.remove("empty");
    $("app").classList.add("reviewing");
    if (frame.puzzle) step = 0;  // the puzzle's one position
    else if (first && puzzleAt) step = Math.min(frame.steps.length - 1, puzzleAt - 1);  // on from the puzzle
    else if (first) {  // his costliest move first, as a coach would start
      const worst = frame.graph.filter((g) => g.label).sort((a, b) => frame.marks[b.n].cost - frame.marks[a.n].cost)[0];
      step = worst ? worst.n - 1 : 0;
    }
    showStep();
  }

  function go(to) {
    step = Math.max(0, Math.min(review.steps.length - 1, to));
    option = null;
    retrying = false;
    showStep();
  }

  // The position before move step + 1, from his seat; at a judged move of his, the better move's cards lifted (or
  // those of the move he tries), and the table that move leaves.
  function showStep() {
    const s = review.steps[step], mark = review.marks[step + 1];
    const tried = mark && option !== null ? mark.options[option] : null;
    const picked = review.puzzle && option !== null ? review.puzzle.options[option].cards : null;
    const lifted = new Set(picked || (tried ? tried.cards : mark && mark.label && !finding(mark) ? mark.best_cards : []));
    const played = new Set(mark && !tried ? mark.played_cards : []);
    state = Object.assign({}, s, {
      status: "review", you: review.you, rules: review.rules, buttons: [], timer: null,
      hand: s.hand.map((c) => ({ card: c, mark: lifted.has(c) ? "play" : played.has(c) ? "picked" : "idle" })),
      shown: reveal ? s.hands : null,
    });
    if (tried && tried.table) state.table = tried.table;
    draw();
    drawReview(mark, tried);
  }

  // At a move of his that cost points he may look for the better one first: the answer waits for his try.
  function finding(mark) { return !!(mark && mark.label && !(mark.n in tries)); }

  function tryVerdict(mark) {
    const i = tries[mark.n];
    if (i === undefined || i < 0) return null;
    const o = mark.options[i], best = Math.max(...mark.options.map((x) => x.value)), cost = best - o.value;
    const key = o.words === mark.played ? "try_played" : cost <= 0.005 ? "try_best" : cost < 0.05 ? "try_good" : "try_bad";
    return texts[key].replace("{move}", o.words).replace("{points}", Math.max(1, Math.round(cost * 100)));
  }

  function button(text, action, extra) {
    const el = Object.assign(document.createElement("button"), { type: "button", className: extra || "" });
    words(el, text);
    el.addEventListener("click", action);
    return el;
  }

  function percent(value) { return Math.round(value * 100) + " %"; }

  function drawReview(mark, tried) {
    const box = $("review");
    box.hidden = false;
    if (review.puzzle) { box.replaceChildren(...puzzleParts(review.puzzle)); return; }
    const total = review.steps.length - 1;
    const parts = [Object.assign(document.createElement("div"), { className: "summary", textContent: review.summary })];
    parts.push(graph(total), marksList(total));
    // one row, so that the graph, the verdict and the hand fit one phone screen: ⏮ ◀ 4 / 47 ▶ ⏭ 👁
    const nav = Object.assign(document.createElement("div"), { className: "nav" });
    const next = review.graph.find((g) => g.label && g.n - 1 > step);
    const where = Object.assign(document.createElement("span"), { textContent: (step + 1) + " / " + total });
    where.setAttribute("aria-label", texts.review_move.replace("{n}", step + 1).replace("{total}", total));
    const eye = button("👁", () => { reveal = !reveal; showStep(); }, "reveal" + (reveal ? " chosen" : ""));
    eye.setAttribute("aria-pressed", String(reveal));
    nav.append(button("⏮", () => go(0)), button("◀", () => go(step - 1)), where, button("▶", () => go(step + 1)),
               button("⏭", () => go(next ? next.n - 1 : total), "next"), eye);
    for (const [i, key] of [[0, "review_start"], [1, "review_back"], [3, "review_forward"], [4, "review_next"], [5, "review_reveal"]]) {
      const said = texts[key].replace("👁", "").trim();
      nav.children[i].setAttribute("aria-label", said);
      nav.children[i].title = said;
    }
    parts.push(nav);
    if (finding(mark)) {
      const verdict = Object.assign(document.createElement("div"), { className: "verdict" });
      const head = document.createElement("div");
      head.append(words(document.createElement("span"), texts.review_you.replace("{move}", mark.played) + " — "));
      head.append(Object.assign(document.createElement("b"), { className: mark.label,
        textContent: texts[mark.label] + " (−" + Math.max(1, Math.round(mark.cost * 100)) + " %)" }));
      verdict.append(head, Object.assign(document.createElement("div"), { textContent: texts.review_find }));
      const options = Object.assign(document.createElement("div"), { className: "options tries" });
      mark.options.forEach((o, i) => options.append(button(o.words, () => { tries[mark.n] = i; option = i; showStep(); })));
      options.append(button(texts.review_answer, () => { tries[mark.n] = -1; showStep(); }, "answer"));
      parts.push(verdict, options);
      show(box, parts);
      return;
    }
    if (mark) {
      const verdict = Object.assign(document.createElement("div"), { className: "verdict" });
      const attempt = tryVerdict(mark);
      if (attempt) verdict.append(words(Object.assign(document.createElement("div"), { className: "try" }), attempt));
      const head = document.createElement("div");
      head.append(words(document.createElement("span"), texts.review_you.replace("{move}", mark.played) + " — "));
      head.append(Object.assign(document.createElement("b"), { className: mark.label || "",
        textContent: mark.label ? texts[mark.label] + " (−" + Math.max(1, Math.round(mark.cost * 100)) + " %)" : texts.review_good }));
      verdict.append(head);
      if (mark.label) verdict.append(words(document.createElement("div"), texts.review_better.replace("{move}", mark.best)));
      verdict.append(words(document.createElement("div"), texts.review_chance.replace("{before}", percent(mark.chance))
        .replace("{after}", percent(mark.value === null ? mark.chance - mark.cost : mark.value))));
      if (tried) verdict.append(words(document.createElement("div"), texts.review_option.replace("{move}", tried.words).replace("{value}", percent(tried.value))));
      parts.push(verdict);
      parts.push(button(texts.review_retry, () => { retrying = !retrying; drawReview(mark, tried); }, retrying ? "chosen" : ""));
      if (retrying) {  // Retry's moves in a sheet over the table, which shows the one tapped
        const options = Object.assign(document.createElement("div"), { className: "options sheet", role: "dialog" });
        options.setAttribute("aria-label", texts.review_retry);
        options.append(button("✕", () => { retrying = false; drawReview(mark, tried); }, "close"));
        mark.options.forEach((o, i) => options.append(button(o.words + " · " + percent(o.value), () => { option = i; showStep(); },
                                                             i === option ? "chosen" : "")));
        parts.push(options);
      }
    }
    show(box, parts);
  }

  function show(box, parts) {  // the panel drawn, its strip of marks scrolled to the move shown
    box.replaceChildren(...parts);
    const strip = box.querySelector(".marks"), here = strip && strip.querySelector(".chosen");
    if (here) strip.scrollLeft = here.offsetLeft - strip.offsetLeft - (strip.clientWidth - here.offsetWidth) / 2;
  }

  // /puzzle in the app: the position, the moves it offers (no values: they come with the verdict), one tap answers.
  function puzzleParts(puzzle) {
    const parts = [Object.assign(document.createElement("div"), { className: "summary", textContent: puzzle.heading })];
    if (!solved) {
      parts.push(Object.assign(document.createElement("div"), { className: "verdict", textContent: puzzle.question }));
      const options = Object.assign(document.createElement("div"), { className: "options" });
      puzzle.options.forEach((o, i) => {
        const el = button(o.words, () => {
          if (option !== null) return;  // answered: the verdict is on its way
          option = i;
          send({ type: "solve", choice: o.i });
          showStep();
        }, i === option ? "chosen" : "");
        el.disabled = option !== null;
        options.append(el);
      });
      parts.push(options);
      return parts;
    }
    const verdict = Object.assign(document.createElement("div"), { className: "verdict" });
    solved.lines.filter((line) => line).forEach((line, i) =>
      verdict.append(words(Object.assign(document.createElement("div"), { className: i === 0 ? "try" : "" }), line)));
    parts.push(verdict, button(texts.puzzle_review, () => send({ type: "sync", review: true }), "next"));
    return parts;
  }

  function onSolved(frame) {
    if (frame.toast) toast(frame.toast);
    if (frame.lines) solved = { lines: frame.lines, best: frame.best };
    else option = null;  // refused: he may answer again
    if (review && review.puzzle) showStep();
  }

  // His marked moves as chess sites mark them (?! inaccuracy, ? mistake, ?? blunder), each a tap away.
  const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  function marksList(total) {
    const list = Object.assign(document.createElement("div"), { className: "marks" });
    for (const g of review.graph.filter((p) => p.label)) {
      const el = button(g.n + SIGNS[g.label], () => go(g.n - 1), g.label + (g.n - 1 === step ? " chosen" : ""));
      el.setAttribute("aria-label", texts[g.label] + " · " + texts.review_move.replace("{n}", g.n).replace("{total}", total));
      list.append(el);
    }
    return list;
  }

  // His chance not to be the durak after each judged move, over the game (0-100 %, from the first move to the
  // last); the marked moves coloured; a tap goes there.
  function graph(total) {
    const W = 300, H = 66, L = 36, x = (n) => L + (W - L - 8) * n / Math.max(1, total), y = (v) => H - 14 - (H - 22) * v;
    const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": texts.review_graph });
    el.append(svg("line", { class: "half", x1: L, x2: W - 8, y1: y(0.5), y2: y(0.5) }));
    for (const [v, label] of [[1, "100 %"], [0.5, "50 %"], [0, "0 %"]]) {
      el.append(svg("text", { class: "scale", x: L - 4, y: y(v) + 3, "text-anchor": "end" }, label));
    }
    el.append(svg("text", { class: "scale", x: x(1), y: H - 2, "text-anchor": "start" }, "1"));
    el.append(svg("text", { class: "scale", x: x(total), y: H - 2, "text-anchor": "end" }, String(total)));
    el.append(svg("line", { class: "now", x1: x(step + 1), x2: x(step + 1), y1: 4, y2: H - 14 }));
    const points = review.graph.filter((g) => g.value !== null);
    el.append(svg("polyline", { class: "line", points: points.map((g) => x(g.n) + "," + y(g.value)).join(" ") }));
    for (const g of points.filter((p) => p.label)) {
      const dot = svg("circle", { class: g.label, cx: x(g.n), cy: y(g.value), r: 5 });
      dot.append(svg("title", {}, texts[g.label] + " · " + texts.review_move.replace("{n}", g.n).replace("{total}", total)));
      el.append(dot);
    }
    el.addEventListener("click", (event) => {  // the nearest judged move to the tap
      const box = el.getBoundingClientRect(), n = (event.clientX - box.left) / box.width * W;
      const near = review.graph.reduce((a, b) => Math.abs(x(b.n) - n) < Math.abs(x(a.n) - n) ? b : a, review.graph[0]);
      if (near) go(near.n - 1);
    });
    return el;
  }

  function onAnswer(frame) {
    clearTimeout(answerTimer);
    if (frame.url) {  // Join by someone the bot cannot write to yet: its private chat, whose Start seats him
      if (tg && tg.openTelegramLink && frame.url.startsWith("https://t.me/")) tg.openTelegramLink(frame.url);
      else location.href = frame.url;
    }
    if (frame.text) toast(frame.text);
    else if (frame.id === resentId) toast(texts.sent);
    if (frame.refused) haptic("error");
  }

  function closeForGood(text) {
    closedForGood = true;
    $("app").classList.add("empty");
    $("net").hidden = true;
    words($("prompt"), text);
  }

  function resync() {  // back from the background (iOS drops the sockets of hidden web views)
    if (socket && socket.readyState === WebSocket.OPEN) send({ type: "sync" });
    else if (!socket) { retry = 500; connect(); }
  }

  // ------------------------------------------------------------------ Telegram

  function applyTheme() {
    const root = document.documentElement;
    let theme = tg && tg.themeParams;
    if (!theme || !Object.keys(theme).length) {
      try { theme = JSON.parse(launch.get("tgWebAppThemeParams") || "{}"); } catch { theme = {}; }
    }
    for (const [k, v] of Object.entries(theme)) root.style.setProperty("--tg-theme-" + k.replace(/_/g, "-"), v);
    if (tg && tg.viewportStableHeight) root.style.setProperty("--tg-viewport-stable-height", tg.viewportStableHeight + "px");
    const scheme = (tg && tg.colorScheme) || (theme.bg_color ? (luminance(theme.bg_color) < 0.4 ? "dark" : "light")
      : matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
    root.dataset.scheme = scheme;
    const fill = readable(theme.button_color, theme.button_text_color);
    if (fill) root.style.setProperty("--button-fill", fill); else root.style.removeProperty("--button-fill");
  }

  // The theme's button colour, darkened or lightened just enough for its text to read (4.5:1, WCAG AA).
  function readable(fill, text) {
    const rgb = (hex) => { const n = parseInt(String(hex).slice(1), 16); return [(n >> 16) & 255, (n >> 8) & 255, n & 255]; };
    const lum = (c) => c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
    if (!/^#[0-9a-f]{6}$/i.test(fill || "") || !/^#[0-9a-f]{6}$/i.test(text || "")) return null;
    const base = rgb(fill), ink = rgb(text), toward = lum(ink) > 0.5 ? 0 : 255;
    for (let k = 0; k <= 1; k += 0.05) {
      const mixed = base.map((v) => Math.round(v + (toward - v) * k));
      if (ratio(mixed, ink) >= 4.5) return k ? "rgb(" + mixed.join(",") + ")" : null;
    }
    return null;
  }

  function luminance(hex) {
    const n = parseInt(String(hex).replace("#", ""), 16);
    return (0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255)) / 255;
  }

  function withTelegram() {
    tg = (window.Telegram && window.Telegram.WebApp) || null;
    if (!tg) return;
    tg.ready();
    tg.expand();
    if (["ios", "android"].includes(tg.platform) && tg.isVersionAtLeast && tg.isVersionAtLeast("8.0")) tg.requestFullscreen();
    applyTheme();
    tg.onEvent("themeChanged", applyTheme);
    tg.onEvent("viewportChanged", () => { applyTheme(); if (state) drawHand(state); });
    tg.onEvent("activated", resync);
    if (state) { confirming = null; draw(); }
  }

  // Telegram's script loads beside the page, never before it: the page draws and connects with what the
  // address carries, and haptics, closing confirmation and theme events join when the script is there.
  function loadTelegram(then) {
    if (tg) { withTelegram(); then(); return; }
    const script = Object.assign(document.createElement("script"), { src: TELEGRAM_JS, async: true });
    let done = false;
    const once = () => { if (!done) { done = true; withTelegram(); then(); } };
    script.onload = once;
    script.onerror = once;
    document.head.append(script);
    if (launch.get("tgWebAppData")) then(); else setTimeout(once, 4000);  // nothing to wait for, or its initData
  }

  document.documentElement.classList.toggle("four", fourColours);
  document.documentElement.lang = languageOf(launchLanguage());
  words($("prompt"), texts.connecting);
  label();
  applyTheme();
  const colours = $("colours");
  colours.setAttribute("aria-pressed", String(fourColours));
  colours.addEventListener("click", () => {
    fourColours = !fourColours;
    localStorage.setItem("durak.four", fourColours ? "1" : "0");
    colours.setAttribute("aria-pressed", String(fourColours));
    document.documentElement.classList.toggle("four", fourColours);
    look++;
    if (state) draw();
  });
  $("leave").addEventListener("click", () => press($("leave").dataset.press));
  const hand = $("hand");
  hand.addEventListener("touchstart", () => tg && tg.disableVerticalSwipes && tg.disableVerticalSwipes(), { passive: true });
  hand.addEventListener("touchend", () => tg && tg.enableVerticalSwipes && tg.enableVerticalSwipes(), { passive: true });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) resync(); });
  document.addEventListener("keydown", (event) => {  // a review on a computer: the arrows step through the game
    if (!review) return;
    if (event.key === "ArrowLeft") go(step - 1);
    else if (event.key === "ArrowRight") go(step + 1);
  });
  new ResizeObserver(() => {  // a scroll bar, a rotation, a resized window: the hand is laid out anew for its width
    if (!state) return;  // the first frame measures it, laid out as a game
    const size = measureHand();
    if (handSize && size.width === handSize.width && size.cw === handSize.cw) return;
    handSize = size;
    if (state) drawHand(state);
  }).observe(hand);
  window.durakState = () => state;  // for tests and curious players: the last frame as it was received
  window.durakReview = () => review;
  let started = false;
  loadTelegram(() => { if (!started) { started = true; connect(); } });
})();
