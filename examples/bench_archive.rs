//! Benchmark: whole archives (issue #10). Reads every file given, then measures
//! (a) a plain read of the files, (b) parse only (cutting into games + the grammar) on one
//! core and on all cores, (c) the full check on one core, (d) the full check on all cores,
//! each as the median of 5 runs, in plies/s and MB/s.
//!
//! Run: `cargo run --release --example bench_archive -- --game xiangqi [--repetition claim] FILE...`
//! (`scripts/bench.sh` prepares the replicated Xiangqi corpus and adds Fairy-Stockfish).
//! Prints one JSON object per phase on stdout.

use arbiter::input;
use arbiter::pipeline::{self, Options};
use arbiter::rules::{GameId, Overrides};
use rayon::prelude::*;
use std::path::PathBuf;

#[path = "support/cpu.rs"]
mod cpu;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut game = None;
    let mut repetition = None;
    let mut files = Vec::new();
    let mut runs = 5;
    let mut phases: Option<String> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--game" => game = args.next().and_then(|g| GameId::parse(&g)),
            // `claim`: the archives play on after a third occurrence; every ply is judged.
            "--repetition" => {
                repetition = args
                    .next()
                    .and_then(|m| arbiter::rules::RepetitionMode::parse(&m))
            }
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(5),
            "--phases" => phases = args.next(),
            _ => files.push(PathBuf::from(a)),
        }
    }
    let opts = Options {
        overrides: Overrides {
            game,
            repetition,
            ..Overrides::default()
        },
    };
    let inputs = input::expand(&files);
    let bytes: usize = files
        .iter()
        .map(|f| std::fs::metadata(f).map(|m| m.len() as usize).unwrap_or(0))
        .sum();
    let mb = bytes as f64 / 1e6;

    // Games and plies (moves as recorded), from one parse.
    let (plies, games): (usize, usize) = inputs
        .iter()
        .flat_map(input::chunks)
        .map(|c| {
            let g = pipeline::parse_chunk(&c);
            (g.iter().map(|g| g.moves.len()).sum::<usize>(), g.len())
        })
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));

    let named = |phase: &str| {
        phases
            .as_deref()
            .is_some_and(|p| p.split(',').any(|x| x == phase))
    };
    // Without --phases every phase runs but the parse's two halves (`cut`, `grammar`), which
    // run only when named, for profiling.
    let wanted = |phase: &str| phases.is_none() || named(phase);
    // `cpu_seconds`: the time the benchmark's thread spent on a CPU (one-core phases only):
    // on a shared, loaded machine the wall time grows with the others' work, this much less.
    let report = |phase: &str, (secs, cpu): (f64, f64), threads: usize| {
        let cpu_rate = if threads == 1 && cpu > 0.0 {
            format!("{:.0}", plies as f64 / cpu)
        } else {
            "null".to_string()
        };
        println!(
            "{{\"phase\":\"{phase}\",\"threads\":{threads},\"seconds\":{secs:.4},\"cpu_seconds\":{cpu:.4},\"games\":{games},\"plies\":{plies},\"bytes\":{bytes},\"plies_per_s\":{:.0},\"plies_per_cpu_s\":{cpu_rate},\"mb_per_s\":{:.1}}}",
            plies as f64 / secs,
            mb / secs
        );
    };

    // Medians of the wall and CPU seconds of `runs` runs.
    let time = |f: &dyn Fn()| {
        let (wall, cpu): (Vec<f64>, Vec<f64>) = (0..runs).map(|_| cpu::timed(f)).unzip();
        (median(wall), median(cpu))
    };

    // (a) plain read
    if wanted("read") {
        let secs = time(&|| {
            let mut n = 0usize;
            for f in &files {
                n += std::fs::read(f)
                    .map(|b| b.iter().filter(|&&c| c == b'\n').count())
                    .unwrap_or(0);
            }
            std::hint::black_box(n);
        });
        report("read", secs, 1);
    }

    // (b) parse only: cut into games and run the grammar on each
    if wanted("parse") {
        // As `arbiter check` reads them: each chunk into the records of the one before.
        let secs = time(&|| {
            let mut n = 0usize;
            for i in &inputs {
                for c in input::chunks(i) {
                    n += pipeline::with_records(&c, |games| {
                        games.iter().map(|g| g.moves.len()).sum::<usize>()
                    });
                }
            }
            std::hint::black_box(n);
        });
        report("parse", secs, 1);
    }

    // (b1) cutting only, when named: the games' texts, not parsed.
    if named("cut") {
        let secs = time(&|| {
            let mut n = 0usize;
            for i in &inputs {
                for c in input::chunks(i) {
                    n += c.text.len();
                }
            }
            std::hint::black_box(n);
        });
        report("cut", secs, 1);
    }
    // (b2) the grammar only, when named: the games cut beforehand (not timed), then parsed and
    // freed.
    if named("grammar") {
        let chunks: Vec<_> = inputs.iter().flat_map(input::chunks).collect();
        let secs = time(&|| {
            let mut n = 0usize;
            for c in &chunks {
                n += pipeline::with_records(c, |games| {
                    games.iter().map(|g| g.moves.len()).sum::<usize>()
                });
            }
            std::hint::black_box(n);
        });
        report("grammar", secs, 1);
    }
    // (b') parse only, all cores: every thread cuts the next 64 games and parses them (no order
    // is kept, none is needed), so that cutting, one file's sequential part, overlaps parsing.
    if wanted("parse-parallel") {
        let threads = rayon::current_num_threads();
        let secs = time(&|| {
            let mut games = inputs.iter().flat_map(input::chunks);
            let batches = std::iter::from_fn(|| {
                let batch: Vec<_> = games.by_ref().take(64).collect();
                (!batch.is_empty()).then_some(batch)
            });
            let plies = |c: &input::Chunk| {
                pipeline::with_records(c, |games| {
                    games.iter().map(|g| g.moves.len()).sum::<usize>()
                })
            };
            let n: usize = batches
                .par_bridge()
                .map(|b| b.iter().map(plies).sum::<usize>())
                .sum();
            std::hint::black_box(n);
        });
        report("parse-parallel", secs, threads);
    }

    // (c) full check, one core (what `arbiter check --jobs 1` does, without printing)
    if wanted("check") {
        let secs = time(&|| {
            let mut n = 0usize;
            for i in &inputs {
                for c in input::chunks(i) {
                    n += pipeline::check_chunk(&c, &opts).len();
                }
            }
            std::hint::black_box(n);
        });
        report("check", secs, 1);
    }

    // (d) full check, all cores, in the batches `arbiter check` cuts (on a thread of their
    // own, one batch ahead: `run::cut_batches`)
    if wanted("check-parallel") {
        let threads = rayon::current_num_threads();
        let secs = time(&|| {
            let mut n = 0usize;
            let batches = arbiter::run::cut_batches(threads, inputs.clone(), None)
                .expect("a thread to cut the input");
            for batch in batches {
                n += batch
                    .par_iter()
                    .map(|c| pipeline::check_chunk(c, &opts).len())
                    .sum::<usize>();
            }
            std::hint::black_box(n);
        });
        report("check-parallel", secs, threads);
    }
}
