// The game's sounds, synthesised with WebAudio: nothing to download, nothing to license.
//
// Five short, soft sounds: a card picked up, put down, sent home, a move refused and a win.
// Each is a few notes (a wave, a pitch that may glide, an onset and a length) shaped by a
// quick rise and a long fall, so none clicks; a low-pass filter takes the edge off.
//
// They play only when the player's settings say sound is on (`currentSettings()`, off by
// default), at the settings' volume. The AudioContext is made the first time a sound is
// due, which is always in answer to the player's own pick-up or move: never on page load
// (browsers refuse to start audio before a gesture, and a page that never plays a sound
// never holds an audio device). Nothing here runs on import.

import { currentSettings } from "./settings.js";

/** The notes of each sound: `wave` an oscillator type, `freq` Hz (gliding to `glide` Hz
 * when given), `at` its onset and `dur` its length in seconds, `gain` its peak at full
 * volume. Peaks stay well under 1: several may sound at once (a drop and the chime of an
 * automatic move home). */
export const SOUNDS = Object.freeze({
  // a light upward flick
  pickup: [{ wave: "triangle", freq: 440, glide: 660, at: 0, dur: 0.07, gain: 0.2 }],
  // a soft tap: a low falling thump with a faint tick on top
  drop: [
    { wave: "triangle", freq: 220, glide: 130, at: 0, dur: 0.1, gain: 0.32 },
    { wave: "sine", freq: 1320, at: 0, dur: 0.03, gain: 0.04 },
  ],
  // a bell-like rising fifth (G5, D6)
  home: [
    { wave: "sine", freq: 783.99, at: 0, dur: 0.2, gain: 0.16 },
    { wave: "sine", freq: 1174.66, at: 0.07, dur: 0.3, gain: 0.14 },
  ],
  // a low "uh-uh": two short falling notes, never a buzzer
  illegal: [
    { wave: "triangle", freq: 196, glide: 175, at: 0, dur: 0.11, gain: 0.24 },
    { wave: "triangle", freq: 165, glide: 147, at: 0.12, dur: 0.16, gain: 0.22 },
  ],
  // a C major arpeggio that rings out
  win: [
    { wave: "sine", freq: 523.25, at: 0, dur: 0.3, gain: 0.14 },
    { wave: "sine", freq: 659.25, at: 0.11, dur: 0.3, gain: 0.14 },
    { wave: "sine", freq: 783.99, at: 0.22, dur: 0.3, gain: 0.14 },
    { wave: "sine", freq: 1046.5, at: 0.33, dur: 0.9, gain: 0.15 },
    { wave: "triangle", freq: 523.25, at: 0.33, dur: 0.9, gain: 0.06 },
  ],
});

const ATTACK = 0.006; // s: fast enough to feel instant, slow enough not to click
const SILENT = 0.0001; // exponential ramps cannot reach 0
const SOFTEN_HZ = 3200; // the low-pass filter's cut-off

/** The sound of a move the page plays: a chime for a card going to its foundation
 * (`Ah>F`, `12:Ah#2>F`), a tap for anything else. */
export function moveSound(text) {
  return String(text).endsWith(">F") ? "home" : "drop";
}

/** The notes to play for `name` under `settings` (the settings contract's object), their
 * peaks scaled by the volume; none when sound is off, the volume is 0 or the name unknown. */
export function soundNotes(name, settings) {
  const notes = Object.hasOwn(SOUNDS, name) ? SOUNDS[name] : null;
  const volume = Math.min(1, Math.max(0, Number(settings?.volume) || 0));
  if (!notes || settings?.sound !== true || volume === 0) return [];
  return notes.map((note) => ({ ...note, gain: note.gain * volume }));
}

/** Schedule `notes` on an AudioContext from now; returns how many oscillators started. */
export function scheduleSound(context, notes) {
  if (!notes.length) return 0;
  const now = context.currentTime;
  const soften = context.createBiquadFilter();
  soften.type = "lowpass";
  soften.frequency.value = SOFTEN_HZ;
  soften.connect(context.destination);
  for (const note of notes) {
    const start = now + note.at;
    const end = start + note.dur;
    const oscillator = context.createOscillator();
    oscillator.type = note.wave;
    oscillator.frequency.setValueAtTime(note.freq, start);
    if (note.glide) oscillator.frequency.exponentialRampToValueAtTime(note.glide, end);
    const envelope = context.createGain();
    envelope.gain.setValueAtTime(SILENT, start);
    envelope.gain.linearRampToValueAtTime(note.gain, start + ATTACK);
    envelope.gain.exponentialRampToValueAtTime(SILENT, end);
    oscillator.connect(envelope);
    envelope.connect(soften);
    oscillator.start(start);
    oscillator.stop(end + 0.02);
  }
  return notes.length;
}

let context = null;

/** The page's one AudioContext, made on first use (see above); null where there is none. */
function audioContext() {
  if (!context) {
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context) return null;
    try {
      context = new Context();
    } catch {
      return null; // no audio device, or too many contexts: the game goes on silent
    }
  }
  // Suspended: made before any gesture, or put to sleep by the system; a gesture wakes it.
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Play `name` ("pickup", "drop", "home", "illegal", "win") if the settings allow it;
 * returns how many notes were scheduled (0: silent). */
export function playSound(name, settings = currentSettings()) {
  const notes = soundNotes(name, settings);
  if (!notes.length) return 0;
  const audio = audioContext();
  return audio ? scheduleSound(audio, notes) : 0;
}
