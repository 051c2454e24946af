// The voice recorder (`tactus voices record`): every token of a pack, one
// after another or in any order, recorded from the microphone, sent as a
// mono 16-bit WAV at the pack's rate, and trimmed and levelled by the
// server. Keyboard only: every action is a button (R, P, N, B and M are
// shortcuts for them); everything that happens is said in the log, a live
// region, so a blind person can record their own voice.
// @ts-check

(() => {
  /** @type {Record<string, string>} */
  const messages = (() => {
    const el = document.getElementById("messages");
    try { return el ? JSON.parse(el.textContent || "{}") : {}; } catch (e) { return {}; }
  })();
  /** @param {string} id @param {Record<string, string | number>} [args] */
  function t(id, args) {
    let text = messages[id] || id;
    for (const [k, v] of Object.entries(args || {})) text = text.split("{$" + k + "}").join(String(v));
    return text;
  }
  /** @template {HTMLElement} T @param {string} id @param {{ new (): T, prototype: T }} [type] @returns {T} */
  function byId(id, type) {
    const el = document.getElementById(id);
    if (!el || (type && !(el instanceof type))) throw new Error("this page has no #" + id);
    return /** @type {T} */ (el);
  }
  const log = byId("log");
  const word = byId("word");
  const wordKey = byId("word-key");
  const progress = byId("progress");
  const list = byId("tokens", HTMLOListElement);
  const recordButton = byId("record", HTMLButtonElement);
  /** @param {string} text */
  function say(text) {
    const p = document.createElement("p");
    p.textContent = text;
    log.appendChild(p);
    while (log.childNodes.length > 50) log.removeChild(log.childNodes[0]);
  }

  const langSelect = /** @type {HTMLSelectElement | null} */ (document.getElementById("page-lang"));
  if (langSelect) {
    langSelect.addEventListener("change", () => {
      const params = new URLSearchParams(location.search);
      params.set("lang", langSelect.value);
      location.replace(location.pathname + "?" + params.toString());
    });
  }

  /** @typedef {{ key: string, text: string, recorded: boolean }} Tok */
  /** @type {{ name: string, language: string, sample_rate: number, tokens: Tok[] }} */
  let pack = { name: "", language: "", sample_rate: 16000, tokens: [] };
  let current = 0;

  function missing() { return pack.tokens.filter((x) => !x.recorded).length; }
  function showProgress() {
    const done = pack.tokens.length - missing();
    progress.textContent = t("js-recorder-progress", { done, total: pack.tokens.length, missing: missing() });
  }
  /** @param {Tok} tok */
  function itemText(tok) {
    return tok.text + " (" + tok.key + "): " + t(tok.recorded ? "js-recorder-recorded" : "js-recorder-missing");
  }
  function renderList() {
    list.replaceChildren(...pack.tokens.map((tok, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.lang = pack.language;
      b.textContent = itemText(tok);
      if (i === current) b.setAttribute("aria-current", "true");
      b.addEventListener("click", () => { go(i); recordButton.focus(); });
      li.appendChild(b);
      return li;
    }));
  }
  function updateItem(/** @type {number} */ i) {
    const b = list.children[i] && list.children[i].querySelector("button");
    if (!b) return;
    b.textContent = itemText(pack.tokens[i]);
    if (i === current) b.setAttribute("aria-current", "true"); else b.removeAttribute("aria-current");
  }
  /** Shows token `i` and says it. @param {number} i */
  function go(i) {
    if (!pack.tokens.length) return;
    // Moving on stops a recording: it is kept for the word it was of.
    if (recording()) stopRecording();
    const before = current;
    current = (i + pack.tokens.length) % pack.tokens.length;
    updateItem(before);
    updateItem(current);
    const tok = pack.tokens[current];
    word.textContent = tok.text;
    word.lang = pack.language;
    wordKey.textContent = "(" + tok.key + ")";
    say(t("js-recorder-say", { text: tok.text, n: current + 1, total: pack.tokens.length }) +
      " " + t(tok.recorded ? "js-recorder-recorded" : "js-recorder-missing"));
  }
  function nextMissing() {
    for (let step = 1; step <= pack.tokens.length; step++) {
      const i = (current + step) % pack.tokens.length;
      if (!pack.tokens[i].recorded) return go(i);
    }
    say(t("js-recorder-all-done"));
  }

  // Recording: the browser's recorder, then decoded, mixed to one channel
  // and resampled to the pack's rate, sent as 16-bit PCM WAV.
  /** @type {MediaStream | null} */
  let stream = null;
  /** @type {MediaRecorder | null} */
  let recorder = null;
  /** Asking for the microphone (the first time): a second R waits. */
  let starting = false;
  function recording() { return !!recorder && recorder.state === "recording"; }

  async function startRecording() {
    if (starting || recording() || !pack.tokens.length) return;
    starting = true;
    try {
      stream = stream || await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
    } catch (e) {
      return say(t("js-recorder-no-microphone", { error: e instanceof Error ? e.message : String(e) }));
    } finally {
      starting = false;
    }
    // The recording belongs to the word shown when it starts, whatever is
    // shown when it stops; its chunks are its own.
    const tok = pack.tokens[current];
    /** @type {Blob[]} */
    const chunks = [];
    const r = new MediaRecorder(stream);
    r.addEventListener("dataavailable", (e) => { if (e.data.size) chunks.push(e.data); });
    r.addEventListener("stop", () => { send(tok, new Blob(chunks, { type: r.mimeType })); });
    recorder = r;
    r.start();
    recordButton.setAttribute("aria-pressed", "true");
    recordButton.textContent = t("js-recorder-stop");
    say(t("js-recorder-recording", { text: tok.text }));
  }
  function stopRecording() {
    if (recording() && recorder) recorder.stop();
    recordButton.setAttribute("aria-pressed", "false");
    recordButton.textContent = t("js-recorder-record");
  }

  /** @param {AudioBuffer} buffer @param {number} rate @returns {Promise<Int16Array>} */
  async function toPcm(buffer, rate) {
    const length = Math.max(1, Math.ceil(buffer.duration * rate));
    const offline = new OfflineAudioContext(1, length, rate);
    const src = offline.createBufferSource();
    src.buffer = buffer;
    src.connect(offline.destination);
    src.start();
    const out = (await offline.startRendering()).getChannelData(0);
    const pcm = new Int16Array(out.length);
    for (let i = 0; i < out.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(out[i] * 32767)));
    return pcm;
  }
  /** @param {Int16Array} pcm @param {number} rate */
  function wav(pcm, rate) {
    const data = new DataView(new ArrayBuffer(44 + pcm.length * 2));
    const text = (/** @type {number} */ at, /** @type {string} */ chars) => { for (let i = 0; i < chars.length; i++) data.setUint8(at + i, chars.charCodeAt(i)); };
    text(0, "RIFF"); data.setUint32(4, 36 + pcm.length * 2, true); text(8, "WAVE");
    text(12, "fmt "); data.setUint32(16, 16, true); data.setUint16(20, 1, true); data.setUint16(22, 1, true);
    data.setUint32(24, rate, true); data.setUint32(28, rate * 2, true); data.setUint16(32, 2, true); data.setUint16(34, 16, true);
    text(36, "data"); data.setUint32(40, pcm.length * 2, true);
    pcm.forEach((s, i) => data.setInt16(44 + i * 2, s, true));
    return new Blob([data.buffer], { type: "audio/wav" });
  }

  /** @param {Tok} tok @param {Blob} blob */
  async function send(tok, blob) {
    try {
      const ctx = new AudioContext();
      const decoded = await ctx.decodeAudioData(await blob.arrayBuffer());
      await ctx.close();
      const body = wav(await toPcm(decoded, pack.sample_rate), pack.sample_rate);
      const r = await fetch("/api/record/clips/" + encodeURIComponent(tok.key), { method: "PUT", body, headers: { "Content-Type": "audio/wav" } });
      const data = await r.json().catch(() => ({}));
      if (r.status === 413) return say(t("js-recorder-too-large", { text: tok.text }));
      if (!r.ok) return say(t("js-recorder-refused", { text: tok.text, error: data.error || String(r.status) }));
      tok.recorded = true;
      const i = pack.tokens.indexOf(tok);
      updateItem(i);
      showProgress();
      say(t("js-recorder-stored", { text: tok.text, seconds: data.seconds.toFixed(2) }));
      if (i === current) nextMissing();
    } catch (e) {
      say(t("js-recorder-failed", { text: tok.text, error: e instanceof Error ? e.message : String(e) }));
    }
  }

  /** @type {HTMLAudioElement | null} */
  let player = null;
  function playBack() {
    const tok = pack.tokens[current];
    if (!tok) return;
    if (recording()) return say(t("js-recorder-busy", { text: tok.text }));
    if (!tok.recorded) return say(t("js-recorder-nothing-to-play", { text: tok.text }));
    if (player) player.pause();
    player = new Audio("/api/record/clips/" + encodeURIComponent(tok.key) + "?at=" + Date.now());
    player.play().catch((e) => say(t("js-recorder-failed", { text: tok.text, error: e instanceof Error ? e.message : String(e) })));
  }

  const toggle = () => (recording() ? stopRecording() : startRecording());
  recordButton.addEventListener("click", toggle);
  byId("play").addEventListener("click", playBack);
  byId("previous").addEventListener("click", () => go(current - 1));
  byId("next").addEventListener("click", () => go(current + 1));
  byId("next-missing").addEventListener("click", nextMissing);
  document.addEventListener("keydown", (e) => {
    // A key held down repeats: it is still one press.
    if (e.repeat || e.altKey || e.ctrlKey || e.metaKey || e.target instanceof HTMLSelectElement) return;
    /** @type {Record<string, () => void>} */
    const keys = { r: toggle, p: playBack, n: () => go(current + 1), b: () => go(current - 1), m: nextMissing };
    const act = keys[e.key.toLowerCase()];
    if (act) { e.preventDefault(); act(); }
  });

  fetch("/api/record").then((r) => r.json()).then((data) => {
    pack = data;
    const first = pack.tokens.findIndex((x) => !x.recorded);
    current = first < 0 ? 0 : first;
    renderList();
    showProgress();
    say(t("js-recorder-pack", { name: pack.name, total: pack.tokens.length, missing: missing() }));
    go(current);
    recordButton.focus();
  });
})();
