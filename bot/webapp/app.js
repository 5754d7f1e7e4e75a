// The Durak table as a Telegram Mini App. The server decides everything: this page draws the frames it is
// sent ({"type": "state"}) and sends the presses its frame offers ({"type": "press", "data": <callback data>}).
"use strict";
(() => {
  const tg = window.Telegram && window.Telegram.WebApp;
  const $ = (id) => document.getElementById(id);
  const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
  const NS = "http://www.w3.org/2000/svg";
  let socket = null, session = null, state = null, received = 0, retry = 500, closedForGood = false;
  let fourColours = localStorage.getItem("durak.four") === "1";
  let wasActing = false, pressId = 0;
  const shownPairs = new Set();

  function colour(suit) {
    if (fourColours) return { S: "var(--black)", C: "var(--green)", D: "var(--blue)", H: "var(--red)" }[suit];
    return suit === "D" || suit === "H" ? "var(--red)" : "var(--black)";
  }

  function svg(tag, attrs, text) {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // One card, drawn: rank and suit in two corners, the suit large in the middle; or its back.
  function card(code, extra) {
    const box = document.createElement("div");
    box.className = "card" + (extra ? " " + extra : "");
    const s = svg("svg", { viewBox: "0 0 60 84", role: "img" });
    if (!code) {
      s.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#3b5ea8", stroke: "#fff", "stroke-width": 2 }));
      s.append(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill: "none", stroke: "#8fa8e0", "stroke-width": 1.5 }));
      box.append(s);
      return box;
    }
    const rank = code.slice(0, -1), suit = code.slice(-1), fill = colour(suit);
    box.dataset.card = code;
    s.setAttribute("aria-label", rank + SUITS[suit]);
    s.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#fff", stroke: "#999" }));
    s.append(svg("text", { x: 5, y: 17, "font-size": 15, "font-weight": 700, fill, "font-family": "system-ui, sans-serif" }, rank));
    s.append(svg("text", { x: 5, y: 31, "font-size": 13, fill }, SUITS[suit]));
    s.append(svg("text", { x: 34, y: 62, "font-size": 30, fill, "text-anchor": "middle" }, SUITS[suit]));
    const corner = svg("text", { x: 55, y: 79, "font-size": 15, "font-weight": 700, fill, "text-anchor": "end",
                                 transform: "rotate(180 48 74)", "font-family": "system-ui, sans-serif" }, rank);
    s.append(corner);
    box.append(s);
    return box;
  }

  function verbOf(data) { return data ? data.split(":")[1] : ""; }

  function send(frame) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  function press(data) {
    if (!data) return;
    send({ type: "press", data, id: ++pressId });
  }

  let toastTimer = 0;
  function toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.classList.add("on");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => el.classList.remove("on"), 2500);
  }

  function haptic(kind) {
    const h = tg && tg.HapticFeedback;
    if (!h) return;
    if (kind === "error") h.notificationOccurred("error"); else h.impactOccurred("medium");
  }

  // ------------------------------------------------------------------ drawing a frame

  function draw() {
    const st = state;
    $("rules").textContent = st.rules || "";
    drawSeats(st);
    drawDeck(st);
    drawTable(st);
    $("moves").replaceChildren(...(st.moves || []).map((line) => Object.assign(document.createElement("li"), { textContent: line })));
    $("prompt").textContent = st.prompt || "";
    $("result").textContent = (st.result || []).join("\n");
    const buttons = (st.buttons || []).map((b) => {
      const el = document.createElement("button");
      el.type = "button";
      el.textContent = b.text;
      el.dataset.press = b.press;
      if (["l", "z", "q", "h", "a", "i"].includes(verbOf(b.press))) el.className = "secondary";
      el.addEventListener("click", () => press(b.press));
      return el;
    });
    $("buttons").replaceChildren(...buttons);
    drawHand(st);
    const me = st.you === null || st.you === undefined ? null : st.seats[st.you];
    const acting = !!(me && me.acting && st.status === "playing");
    if (acting && !wasActing) haptic("turn");
    wasActing = acting;
    if (tg) acting ? tg.enableClosingConfirmation() : tg.disableClosingConfirmation();
    tick();
  }

  function drawSeats(st) {
    const seats = st.seats.map((s) => {
      const el = document.createElement("div");
      el.className = "seat" + (s.you ? " you" : "") + (s.acting ? " acting" : "");
      const ring = svg("svg", { class: "ring", viewBox: "0 0 36 36" });
      ring.append(svg("circle", { class: "track", cx: 18, cy: 18, r: 16 }));
      ring.append(svg("circle", { class: "left", cx: 18, cy: 18, r: 16, "stroke-dasharray": 100.5, "stroke-dashoffset": 100.5 }));
      ring.append(svg("text", { x: 18, y: 18 }, s.computer ? "🤖" : (s.name[0] || "?").toUpperCase()));
      const who = document.createElement("div");
      who.className = "who";
      const name = Object.assign(document.createElement("span"), { className: "name", textContent: s.name });
      const role = Object.assign(document.createElement("span"), { className: "role", textContent: s.role });
      who.append(name, role);
      const count = document.createElement("span");
      count.className = "count";
      count.append(document.createElement("i"), String(s.cards));
      el.append(ring, who, count);
      return el;
    });
    $("seats").replaceChildren(...seats);
  }

  function drawDeck(st) {
    const labels = st.labels || {};
    $("trump").replaceChildren(...(st.trump_card && st.stock ? [card(st.trump_card)] : []));
    const stock = [];
    if (st.stock > 1 || (st.stock === 1 && !st.trump_card)) stock.push(card(null));
    if (st.stock) {
      stock.push(Object.assign(document.createElement("div"), { className: "count",
        textContent: (labels.stock || "") + " " + st.stock }));
    }
    $("stock").replaceChildren(...stock);
    $("discard").textContent = st.discard ? (labels.discard || "") + " " + st.discard : "";
    $("trumpline").textContent = st.trump_text || "";
  }

  function drawTable(st) {
    const targets = new Map();  // a cover target on the table -> the press that covers it (chosen card first)
    for (const b of st.buttons || []) {
      if (verbOf(b.press) === "t") targets.set(b.press.split(":")[4].split(".")[1], b.press);
    }
    const pairs = (st.table || []).map(([attack, cover]) => {
      const el = document.createElement("div");
      const key = attack + "/" + (cover || "");
      el.className = "pair" + (shownPairs.has(key) ? "" : " new");
      shownPairs.add(key);
      const a = card(attack, targets.has(attack) ? "target" : "");
      if (targets.has(attack)) a.addEventListener("click", () => press(targets.get(attack)));
      el.append(a);
      if (cover) el.append(card(cover, "cover"));
      return el;
    });
    if (!pairs.length) shownPairs.clear();
    $("table").replaceChildren(...pairs);
  }

  function drawHand(st) {
    const hand = st.hand || [];
    const mid = (hand.length - 1) / 2;
    const cards = hand.map((h, i) => {
      const el = card(h.card, h.mark);
      el.style.setProperty("--tilt", ((i - mid) * Math.min(4, 40 / Math.max(hand.length, 1))) + "deg");
      if (h.press) el.dataset.press = h.press;
      el.addEventListener("click", () => h.press ? press(h.press) : haptic("error"));
      return el;
    });
    const width = document.documentElement.clientWidth - 32;
    const overlap = hand.length > 1 ? Math.min(18, 56 - (width - 56) / (hand.length - 1)) : 0;
    cards.forEach((el, i) => { if (i) el.style.marginLeft = (-Math.max(overlap, -6)) + "px"; });
    $("hand").replaceChildren(...cards);
  }

  // The turn's time left, as a ring around the acting seats (counted from when the frame arrived).
  function tick() {
    if (!state) return;
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

  function connect() {
    if (closedForGood) return;
    const url = new URL("ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.search = "";
    socket = new WebSocket(url);
    socket.onopen = () => {
      const params = new URLSearchParams(location.search);
      send(session ? { type: "hello", session } :
        { type: "hello", init_data: tg ? tg.initData : "", game: params.get("g") || undefined });
    };
    socket.onmessage = (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type === "state") {
        retry = 500;
        if (frame.session) session = frame.session;
        state = frame;
        received = Date.now();
        draw();
        if (!performance.getEntriesByName("table").length) performance.mark("table");  // first drawn
      } else if (frame.type === "answer") {
        if (frame.text) toast(frame.text);
        if (frame.refused) haptic("error");
      } else if (frame.type === "error") {
        $("prompt").textContent = frame.text || frame.reason;
      }
    };
    socket.onclose = (event) => {
      socket = null;
      if (event.code === 4401 && session) { session = null; setTimeout(connect, 100); return; }  // a stale session
      if (event.code === 4401 || event.code === 4403 || event.code === 4400) { closedForGood = true; return; }
      setTimeout(connect, retry);  // a restart of the bot, a dropped connection: back with the current game
      retry = Math.min(retry * 2, 5000);
    };
  }

  function resync() {  // back from the background (iOS drops the sockets of hidden web views)
    if (socket && socket.readyState === WebSocket.OPEN) send({ type: "sync" });
    else if (!socket) { retry = 500; connect(); }
  }

  function applyTheme() {
    if (!tg || !tg.themeParams) return;
    const root = document.documentElement.style;
    for (const [k, v] of Object.entries(tg.themeParams)) root.setProperty("--tg-theme-" + k.replace(/_/g, "-"), v);
    if (tg.viewportStableHeight) root.setProperty("--tg-viewport-stable-height", tg.viewportStableHeight + "px");
  }

  $("colours").setAttribute("aria-pressed", String(fourColours));
  $("colours").addEventListener("click", () => {
    fourColours = !fourColours;
    localStorage.setItem("durak.four", fourColours ? "1" : "0");
    $("colours").setAttribute("aria-pressed", String(fourColours));
    if (state) draw();
  });
  $("hand").addEventListener("touchstart", () => tg && tg.disableVerticalSwipes && tg.disableVerticalSwipes(), { passive: true });
  $("hand").addEventListener("touchend", () => tg && tg.enableVerticalSwipes && tg.enableVerticalSwipes(), { passive: true });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) resync(); });
  if (tg) {
    tg.ready();
    tg.expand();
    applyTheme();
    tg.onEvent("themeChanged", applyTheme);
    tg.onEvent("viewportChanged", applyTheme);
    tg.onEvent("activated", resync);
  }
  window.durakState = () => state;  // for tests and curious players: the last frame as it was received
  connect();
})();
