#!/usr/bin/env node
// Benchmark phase (e) of scripts/bench.sh: Fairy-Stockfish (npm `ffish`, wasm) replays the same
// xqbase ICCS games arbiter checks: each game from the start position, every move pushed (push()
// validates legality), and the game-over test after every move, as a referee would. Prints one
// JSON object like examples/bench_archive.rs, timed the same way (median of RUNS runs).
//
// Usage: node bench-ffish.js [--runs N] FILE...
'use strict';
globalThis.fetch = undefined; // ffish's loader must read its wasm file under Node 20
const fs = require('fs');
const ffish = require('ffish');

const args = process.argv.slice(2);
let runs = 5;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else files.push(args[i]);
}
const toUci = (m) => m[0] + (Number(m[1]) + 1) + m[2] + (Number(m[3]) + 1);
const moveRe = /\b[a-i][0-9][a-i][0-9]\b/g;

ffish.onRuntimeInitialized = () => {
  const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  // Games: split at tag blocks; moves: the ICCS tokens of each movetext.
  const games = [];
  for (const t of texts) {
    for (const g of t.split(/\n(?=\[)/)) {
      const body = g.replace(/^\[.*\]\s*$/gm, '');
      const moves = body.match(moveRe);
      if (moves) games.push(moves.map(toUci));
    }
  }
  const plies = games.reduce((n, g) => n + g.length, 0);
  const times = [];
  let refused = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    for (const g of games) {
      const board = new ffish.Board('xiangqi');
      for (const m of g) {
        if (!board.push(m)) {
          refused++;
          break;
        }
        board.isGameOver(true);
      }
      board.delete();
    }
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  times.sort((a, b) => a - b);
  const secs = times[Math.floor(times.length / 2)];
  console.log(JSON.stringify({
    phase: 'ffish', threads: 1, seconds: Number(secs.toFixed(4)), games: games.length, plies,
    bytes, plies_per_s: Math.round(plies / secs), mb_per_s: Number((bytes / 1e6 / secs).toFixed(1)),
    refused: refused / runs,
  }));
};
