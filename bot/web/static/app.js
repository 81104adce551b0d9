// The Narrator's view: fetch the server's JSON, draw it, and fetch again whenever the
// event stream says something changed. Every piece of text goes in through textContent,
// never parsed as HTML, so a name typed as <b>Vin</b> shows exactly as typed.
"use strict";

const STEPS = {
  declare: "declare an action", act: "act", defend: "defend", nudges: "spend Nudges",
  roll: "give the dice rolled at the table",
  next_round: "next round (Narrator)", join: "join the Conflict", nothing: "nothing",
};
let current = null;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function add(parent, ...children) {
  for (const child of children) if (child) parent.appendChild(child);
  return parent;
}

function dice(count, label, kind) {
  const row = el("div", "pool");
  add(row, el("span", "label", label));
  const box = el("span", "dice " + kind);
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", count + " " + label);
  for (let i = 0; i < Math.min(count, 20); i += 1) box.appendChild(el("span", "die"));
  return add(row, box, el("span", "count " + kind + "-count", count));
}

function meter(name, now, top, text) {
  const row = el("div", "res");
  const bar = el("div", "bar");
  const share = top > 0 ? now / top : 0;
  bar.classList.add(share <= 0.5 ? "low" : share < 1 ? "mid" : "full");
  const fill = el("span");
  fill.style.width = Math.round(Math.max(0, Math.min(1, share)) * 100) + "%";
  bar.appendChild(fill);
  return add(row, el("span", "label", name), bar, el("span", "value", text || now + "/" + top));
}

function portrait(path, name) {
  const img = el("img", "portrait");
  img.src = path;
  img.alt = "Portrait of " + name;
  img.loading = "lazy";
  return img;
}

function participant(p) {
  const card = el("div", "participant" + (p.up ? " up" : ""));
  card.dataset.id = p.id;
  const head = add(el("div", "p-head"), el("span", "p-name", p.name), el("span", "p-status", p.status));
  card.appendChild(head);
  const notes = [];
  if (p.surprised) notes.push("surprised");
  const flared = p.flared || [];
  const steady = (p.burning || []).filter((m) => !flared.includes(m));
  if (steady.length) notes.push("burning " + steady.join("+"));
  if (flared.length) notes.push("flaring " + flared.join("+"));
  if (p.drag) notes.push("Pewter drag");
  if (p.declared) notes.push(p.declared);
  if (notes.length) card.appendChild(el("div", "meta", notes.join(" · ")));
  if (!p.shown) {
    const word = p.state || "unknown";
    card.appendChild(el("span", "state " + word.split(" ")[0], word));
    return card;
  }
  if (p.portrait) head.prepend(portrait(p.portrait, p.name));
  add(card, dice(p.action_dice, "Action", "action"), dice(p.defense_dice, "Defense", "defense"));
  if (p.next_round_dice) card.appendChild(el("div", "meta", "+" + p.next_round_dice + " dice next round"));
  if (p.resiliences) for (const r of p.resiliences) card.appendChild(meter(r.name, r.current, r.max));
  if (p.members) card.appendChild(meter(p.members.label, p.members.left, p.members.size, p.members.text));
  if (p.burdens) card.appendChild(el("div", "meta", p.burdens + (p.burdens === 1 ? " Burden" : " Burdens")));
  return card;
}

function conflict(c) {
  const card = el("article", "conflict");
  card.dataset.channel = c.channel;
  const head = add(el("div", "conflict-head"), el("h3", null, c.type + " Conflict — round " + c.round),
    el("span", "meta", c.phase));
  add(card, head, el("p", "stakes", "Stakes: " + c.stakes));
  const step = STEPS[c.step] || c.step;
  const next = el("div", "next");
  next.textContent = c.up.length ? "Up now: " + c.up.join(", ") + " — " + step : "Next: " + step;
  card.appendChild(next);
  if (c.pending) {
    const aim = c.pending.target ? " → " + c.pending.target : "";
    const pool = c.pending.pool !== null ? ", " + c.pending.pool + " dice" : "";
    const wait = {
      defence: "waiting for the defence", roll: "defence set, dice rolled at the table", nudges: "Nudges to spend",
    }[c.pending.awaiting];
    card.appendChild(el("div", "order", "In progress: " + c.pending.attacker + aim + pool + ", " + wait));
  }
  if (c.order.length) {
    const order = el("div", "order", "Order: ");
    c.order.forEach((names, i) => {
      if (i) order.appendChild(document.createTextNode(" → "));
      order.appendChild(el("b", null, names.join(" = ")));
    });
    card.appendChild(order);
  }
  const sides = el("div", "sides");
  for (const side of c.sides) {
    if (!side.participants.length) continue;
    const box = el("div", "side " + side.label.toLowerCase());
    box.appendChild(el("h4", null, side.label + " (" + side.participants.length + ")"));
    for (const p of side.participants) box.appendChild(participant(p));
    sides.appendChild(box);
  }
  return add(card, sides);
}

function sheet(s) {
  const card = el("article", "sheet");
  card.dataset.name = s.name.toLowerCase();
  const title = add(el("h3"), el("span", "s-name", s.name), el("span", "kind " + s.kind, s.kind_label));
  if (s.portrait) title.prepend(portrait(s.portrait, s.name));
  card.appendChild(title);
  if (s.concept) card.appendChild(el("p", "concept", s.concept));
  const ratings = el("div", "ratings");
  for (const r of s.attributes.concat(s.standings)) {
    const cell = add(el("div"), el("span", null, r.name), el("b", null, r.rating));
    if (r.spent) cell.appendChild(el("span", "spent", "(" + r.spent + ")"));
    ratings.appendChild(cell);
  }
  card.appendChild(ratings);
  for (const r of s.resiliences) card.appendChild(meter(r.name, r.current, r.max));
  if (s.members) card.appendChild(meter(s.members.label, s.members.left, s.members.size, s.members.text));
  // Each item's words come from the server (bot/render/sheet_words.py), as the card's do.
  const traits = s.traits.map((t) => (t.label ? [t.label + ": ", t.text] : ["", t.text]));
  const lists = [
    ["Traits", traits],
    [s.destiny_title, s.destiny ? [["", s.destiny]] : []],
    [s.tragedy_title, s.tragedy ? [["", s.tragedy]] : []],
    ["Advancements", s.advancements ? [["", s.advancements]] : []],
    ["Burdens", s.burdens.map((b) => ["", b.name + " — " + b.weight])],
    ["Powers", s.powers.map((p) => ["", p.name + " " + p.rating])],
    ["Stunts", s.powers.flatMap((p) => p.stunts.map((stunt) => [p.name + ": ", stunt]))],
    ["Metals", (s.metals || []).map((line) => ["", line])],
    ["Secrets known", s.secrets_known.map((t) => ["", t])],
    ["Props", s.props.map((p) => ["", p.name + (p.bonuses ? " (" + p.bonuses + ")" : "")])],
    ["Notes", s.notes ? s.notes.split("\n").map((line) => ["", line]) : []],
  ];
  for (const [label, items] of lists) {
    if (!items.length) continue;
    const part = el("section", "part");
    part.dataset.part = label.split(" ")[0].toLowerCase();
    add(part, el("div", "meta", label));
    const list = el("ul", "list");
    for (const [name, text] of items) {
      list.appendChild(add(el("li"), name ? el("b", null, name) : null, el("span", null, text)));
    }
    card.appendChild(add(part, list));
  }
  return card;
}

function filterSheets() {
  const query = document.getElementById("search").value.trim().toLowerCase();
  for (const card of document.querySelectorAll("#sheets .sheet")) {
    card.hidden = query !== "" && !card.dataset.name.includes(query);
  }
}

function render(data) {
  document.getElementById("who").textContent = data.narrator ? "Narrator" : "Player";
  const conflicts = document.getElementById("conflicts");
  conflicts.replaceChildren(...data.conflicts.map(conflict));
  if (!data.conflicts.length) conflicts.appendChild(el("p", "empty", "No Conflict is running."));
  const sheets = document.getElementById("sheets");
  sheets.replaceChildren(...data.sheets.map(sheet));
  if (!data.sheets.length) sheets.appendChild(el("p", "empty", "No sheets to show."));
  filterSheets();
  document.body.dataset.mark = data.mark;
}

const ENDED = "This session has ended; ask for a new link with /web in Discord.";
const BUSY = "Too many pages of this view are open: this one goes live as soon as you close another.";
const RETRY_MS = 2000;
let stream = null;
let retry = null;
let reload = null;
let over = false;

function notice(text) {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.hidden = false;
}

function clearNotice() {
  document.getElementById("notice").hidden = true;
}

function setLive(text, on) {
  const live = document.getElementById("live");
  live.textContent = text;
  live.classList.toggle("on", on);
}

// The session is over (a new /web, /web logout, the role gone, the cookie expired, the
// secret changed): say so, and take the old numbers off the page.
function ended() {
  over = true;
  if (stream) stream.close();
  stream = null;
  clearTimeout(retry);
  clearTimeout(reload);
  current = null;
  document.getElementById("conflicts").replaceChildren();
  document.getElementById("sheets").replaceChildren();
  document.body.dataset.ended = "true";
  setLive("ended", false);
  notice(ENDED);
}

async function load() {
  if (over) return;
  let response;
  try {
    response = await fetch("data", { credentials: "same-origin", cache: "no-store" });
  } catch (error) {
    return; // the stream notices the network too, and reloads when it is back
  }
  if (response.status === 403) {
    ended();
    return;
  }
  if (response.status === 429) {
    const wait = Number(response.headers.get("Retry-After")) || 1;
    clearTimeout(reload);
    reload = setTimeout(load, wait * 1000);
    return;
  }
  if (!response.ok) return;
  current = await response.json();
  render(current);
}

// The stream was refused or lost for good: ask why. An ended session says so; a refused
// stream (too many pages open) waits for a place; a network down is tried again.
async function check() {
  if (over) return;
  let response;
  try {
    response = await fetch("session", { credentials: "same-origin", cache: "no-store" });
  } catch (error) {
    setLive("reconnecting…", false);
    retry = setTimeout(check, RETRY_MS);
    return;
  }
  if (response.status === 403) {
    ended();
    return;
  }
  const state = response.ok ? await response.json() : { streams: "busy" };
  if (state.streams === "busy") {
    setLive("paused", false);
    notice(BUSY);
    retry = setTimeout(check, RETRY_MS);
    return;
  }
  listen();
}

function listen() {
  if (over) return;
  stream = new EventSource("events");
  stream.addEventListener("open", () => {
    setLive("live", true);
    clearNotice();
  });
  stream.addEventListener("error", () => {
    if (stream && stream.readyState === EventSource.CLOSED) {
      stream = null;
      check();
    } else {
      setLive("reconnecting…", false);
    }
  });
  stream.addEventListener("changed", () => { load(); });
  stream.addEventListener("expired", () => { ended(); });
}

document.getElementById("search").addEventListener("input", filterSheets);
load();
listen();
