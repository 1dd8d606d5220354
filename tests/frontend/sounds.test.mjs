// The game's sounds (shared/sounds.js): which sound a move makes, and that nothing is
// scheduled, or even made, unless the settings say sound is on at a volume above 0.

import { test } from "node:test";
import assert from "node:assert/strict";

import { DEFAULTS } from "../../frontend/static/frontend/js/shared/settings.js";
import { SOUNDS, moveSound, playSound, scheduleSound, soundNotes } from "../../frontend/static/frontend/js/shared/sounds.js";

const ON = { ...DEFAULTS, sound: true, volume: 0.5 };

/** A stand-in for the browser's AudioContext that records what is started when. */
class RecordingContext {
  constructor() {
    this.currentTime = 10;
    this.destination = { name: "speakers" };
    this.started = [];
    this.peaks = [];
  }

  param(onSet) {
    return {
      value: 0,
      setValueAtTime() {},
      linearRampToValueAtTime: onSet,
      exponentialRampToValueAtTime() {},
    };
  }

  createOscillator() {
    const context = this;
    return {
      type: "sine",
      frequency: this.param(() => {}),
      connect() {},
      start(at) { context.started.push(at); },
      stop() {},
    };
  }

  createGain() {
    return { gain: this.param((peak) => this.peaks.push(peak)), connect() {} };
  }

  createBiquadFilter() {
    return { type: "", frequency: { value: 0 }, connect() {} };
  }
}

test("a move home chimes, any other move taps", () => {
  assert.equal(moveSound("Ah>F"), "home");
  assert.equal(moveSound("12:Ah#2>F"), "home");
  assert.equal(moveSound("9h>4"), "drop");
  assert.equal(moveSound("3:Kd#1>1"), "drop");
});

test("every event has a short, soft sound", () => {
  assert.deepEqual(Object.keys(SOUNDS).sort(), ["drop", "home", "illegal", "pickup", "win"]);
  for (const [name, notes] of Object.entries(SOUNDS)) {
    const end = Math.max(...notes.map((n) => n.at + n.dur));
    assert.ok(end <= (name === "win" ? 1.5 : 0.4), `${name} lasts ${end} s`);
    // the loudest moment: the notes sounding together at any note's onset
    const loudest = Math.max(...notes.map((at) => notes
      .filter((n) => n.at <= at.at && at.at < n.at + n.dur)
      .reduce((sum, n) => sum + n.gain, 0)));
    assert.ok(loudest <= 0.5, `${name} peaks at ${loudest}`);
  }
});

test("sound off, volume 0, no settings or an unknown sound: no notes", () => {
  assert.deepEqual(soundNotes("drop", DEFAULTS), []); // off by default
  assert.deepEqual(soundNotes("drop", { ...ON, sound: false }), []);
  assert.deepEqual(soundNotes("drop", { ...ON, volume: 0 }), []);
  assert.deepEqual(soundNotes("drop", undefined), []);
  assert.deepEqual(soundNotes("fanfare", ON), []);
  assert.deepEqual(soundNotes("toString", ON), []);
});

test("the volume scales every note's peak", () => {
  const half = soundNotes("home", ON);
  const full = soundNotes("home", { ...ON, volume: 1 });
  assert.deepEqual(full.map((n) => n.gain), SOUNDS.home.map((n) => n.gain));
  assert.deepEqual(half.map((n) => n.gain), SOUNDS.home.map((n) => n.gain * 0.5));
  assert.deepEqual(soundNotes("home", { ...ON, volume: 7 }).map((n) => n.gain), full.map((n) => n.gain));
});

test("scheduled from the context's now, each note at its onset and peak", () => {
  const context = new RecordingContext();
  assert.equal(scheduleSound(context, soundNotes("win", ON)), SOUNDS.win.length);
  assert.deepEqual(context.started, SOUNDS.win.map((n) => 10 + n.at));
  assert.deepEqual(context.peaks, SOUNDS.win.map((n) => n.gain * 0.5));
  assert.equal(scheduleSound(context, []), 0);
  assert.equal(context.started.length, SOUNDS.win.length);
});

test("silent settings never make an AudioContext", () => {
  let made = 0;
  globalThis.AudioContext = class extends RecordingContext {
    constructor() { super(); made += 1; this.state = "running"; }
  };
  try {
    assert.equal(playSound("pickup", DEFAULTS), 0);
    assert.equal(playSound("pickup", { ...ON, volume: 0 }), 0);
    assert.equal(made, 0);
    assert.equal(playSound("pickup", ON), 1);
    assert.equal(playSound("illegal", ON), 2);
    assert.equal(made, 1); // one context, made on the first sound and kept
  } finally {
    delete globalThis.AudioContext;
  }
});
