"""Makes every clip of a voice pack with SVOX Pico (py-nanotts), from the
texts in the pack's voice.toml; run by scripts/make-voice inside the virtual
environment it creates.

Which Pico voice says which token comes from the manifest's comment lines
(the loader ignores them), as for the espeak maker:

    # make-voice: es                          every token in the Spanish voice
    # make-voice: de = file.* rank.* castle.* these in the German one (globs)

A later line wins. The texts are the manifest's, as Appendix D writes them;
where the synthesizer says a word better spelt otherwise, a line gives what
it is told instead:

    # make-voice-say: file.c = Cäsar

Each clip is mono 16-bit PCM at Pico's 16,000 Hz, trimmed to the speech
(what stays before the first and after the last loud sample is under
30 ms) and levelled (its loudness over speech frames brought to the
pack's target, -20 dBFS), measured as tactus measures them
(crates/speech/src/dsp.rs, crates/speech/src/loudness.rs). The manifest's
sample_rate and [source] are rewritten to say what made the clips.
"""

import fnmatch
import math
import os
import re
import sys
import tomllib
import wave
from array import array
from importlib import metadata

from py_nanotts import NanoTTS

RATE = 16_000
# espeak's voice names, as the directives write them, to Pico's.
PICO = {"de": "de-DE", "es": "es-ES", "en": "en-GB", "en-gb": "en-GB", "en-us": "en-US",
        "fr": "fr-FR", "it": "it-IT"}
# As tactus trims (dsp.rs): a sample is sound from 2% of the clip's peak;
# 5 ms kept before, 15 ms after.
TRIM_THRESHOLD = 0.02
MARGIN_BEFORE_MS, MARGIN_AFTER_MS = 5, 15
# As tactus levels (loudness.rs).
TARGET_DB, KNEE = -20.0, 0.8
FRAME_MS, RELATIVE_GATE_DB, ABSOLUTE_GATE_DB = 20, -30.0, -70.0


def directives(text):
    default, rules, say = None, [], {}
    for line in text.splitlines():
        m = re.match(r"^#\s*make-voice:\s*(.*\S)\s*$", line)
        if m:
            body = m.group(1)
            if "=" in body:
                voice, globs = body.split("=", 1)
                rules.append((voice.strip(), globs.split()))
            else:
                default = body
            continue
        m = re.match(r"^#\s*make-voice-say:\s*(\S+)\s*=\s*(.*\S)\s*$", line)
        if m:
            say[m.group(1)] = m.group(2)
    return default, rules, say


def voice_of(key, default, rules):
    voice = default
    for v, globs in rules:
        if any(fnmatch.fnmatchcase(key, g) for g in globs):
            voice = v
    if voice not in PICO:
        sys.exit(f"make-voice: no Pico voice for `{voice}` (Pico has {', '.join(sorted(set(PICO.values())))})")
    return PICO[voice]


def trim(samples):
    peak = max((abs(s) for s in samples), default=0.0)
    if peak == 0.0:
        return samples
    threshold = peak * TRIM_THRESHOLD
    loud = [i for i, s in enumerate(samples) if abs(s) >= threshold]
    first = max(0, loud[0] - MARGIN_BEFORE_MS * RATE // 1000)
    last = min(len(samples), loud[-1] + 1 + MARGIN_AFTER_MS * RATE // 1000)
    return samples[first:last]


def loudness_db(samples):
    n = max(1, RATE * FRAME_MS // 1000)
    hop = max(1, n // 2)
    frames = [samples] if len(samples) < n else [samples[i:i + n] for i in range(0, len(samples) - n + 1, hop)]
    powers = [sum(s * s for s in f) / len(f) for f in frames if f]
    loudest = max(powers, default=0.0)
    if loudest <= 0.0:
        return None
    gate = max(loudest * 10 ** (RELATIVE_GATE_DB / 10), 10 ** (ABSOLUTE_GATE_DB / 10))
    gated = [p for p in powers if p >= gate]
    return 10 * math.log10(sum(gated) / len(gated))


def soft_limit(x):
    a = abs(x)
    if a <= KNEE:
        return x
    # Bent towards full scale, never past it.
    bent = KNEE + (1 - KNEE) * math.tanh((a - KNEE) / (1 - KNEE))
    return math.copysign(bent, x)


def level(samples):
    db = loudness_db(samples)
    if db is None:
        return samples
    gain = 10 ** ((TARGET_DB - db) / 20)
    return [soft_limit(s * gain) for s in samples]


def write(path, samples):
    pcm = array("h", (max(-32768, min(32767, round(s * 32767))) for s in samples))
    if sys.byteorder != "little":
        pcm.byteswap()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with wave.open(tmp, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    os.replace(tmp, path)


def rewrite_manifest(path, text, voices, version):
    text = re.sub(r"(?m)^sample_rate *= *\d+", f"sample_rate = {RATE}", text)
    source = (f'[source]\nengine = "pico"\nvoice = "{", ".join(voices)}"\n'
              f'version = "py-nanotts {version}"\n\n')
    if re.search(r"(?m)^\[source\]", text):
        text = re.sub(r"(?ms)^\[source\]\n.*?\n\n", source, text)
    else:
        text = text.replace("\n[tokens]", "\n" + source + "[tokens]", 1) if "\n[grammar]" not in text \
            else text.replace("\n[grammar]", "\n" + source + "[grammar]", 1)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main():
    pack = sys.argv[1] if len(sys.argv) > 1 else "voices/de-appendix-d"
    speed = float(os.environ.get("SPEED", "1.3"))
    path = os.path.join(pack, "voice.toml")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    manifest = tomllib.loads(text)
    default, rules, say = directives(text)
    default = default or manifest["language"]
    tts = NanoTTS()
    used = []
    for key, token in manifest["tokens"].items():
        voice = voice_of(key, default, rules)
        if voice not in used:
            used.append(voice)
        pcm = array("h")
        pcm.frombytes(tts.speak(say.get(key, token["text"]), voice=voice, speed=speed))
        if sys.byteorder != "little":
            pcm.byteswap()
        samples = [s / 32768 for s in pcm]
        clip = level(trim(samples))
        if not clip:
            sys.exit(f"make-voice: Pico said nothing for {key} ({token['text']!r})")
        write(os.path.join(pack, token["clip"]), clip)
    version = metadata.version("py-nanotts")
    rewrite_manifest(path, text, used, version)
    print(f"make-voice: {len(manifest['tokens'])} clips in {pack} at {RATE} Hz, "
          f"Pico ({', '.join(used)}) at speed {speed}, py-nanotts {version}")


if __name__ == "__main__":
    main()
