//! Benchmark of the Xiangqi archive readers (issue 23): the files of the XQF and DhtmlXQ
//! corpus folders (default `../shared/corpus/xiangqi-xqf` and `xiangqi-dhtmlxq`) read into
//! memory, then, per format, (a) the reader alone (`read_xqf`; `blocks` and `read_dhtmlxq`)
//! and (b) the whole judgement of every record with every line of play (`check_record`,
//! `--repetition claim`), on one core. Each phase is repeated until it has used at least
//! SECONDS of processor time (default 1) and is measured in the thread's processor time
//! (`/proc/thread-self/stat`), not the clock's: on a machine shared by many builds the
//! clock runs several times faster than the work. One JSON line per format and phase:
//! files, bytes, lines, plies (the tree's, each ply once), rounds, cpu_seconds (per round),
//! MB/s, plies/s.
//!
//! Run: `cargo run --release --example bench_readers [-- --seconds S] [-- XQF_DIR DHTMLXQ_DIR]`.

use arbiter::pipeline::{check_record, Options};
use arbiter::record::{dhtmlxq, xqf, GameRecord};
use arbiter::rules::{Overrides, RepetitionMode};

/// The files under `dir` whose extension is one of `ext` (any case), read, sorted by path.
fn read_all(dir: &str, ext: &[&str]) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            let x = p.extension().and_then(|x| x.to_str()).unwrap_or("");
            ext.iter().any(|e| x.eq_ignore_ascii_case(e))
        })
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("readable file"))
        .collect()
}

/// The records of one file of `format`.
fn records(format: &str, bytes: &[u8]) -> Vec<GameRecord> {
    match format {
        "xqf" => vec![xqf::read_xqf(bytes, 0)],
        _ => dhtmlxq::blocks(bytes)
            .into_iter()
            .enumerate()
            .map(|(i, (start, end))| dhtmlxq::read_dhtmlxq(&bytes[start..end], i))
            .collect(),
    }
}

/// The processor time this thread has used, in seconds (Linux; 10 ms steps).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    let fields: Vec<f64> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    // utime and stime, fields 14 and 15 of the line (11 and 12 after the name's `)`),
    // in clock ticks of 1/100 s.
    (fields.get(10).unwrap_or(&0.0) + fields.get(11).unwrap_or(&0.0)) / 100.0
}

/// Runs `work` (which returns lines and plies) until it has used `budget` seconds of
/// processor time; returns (rounds, processor seconds per round, lines, plies).
fn time(budget: f64, mut work: impl FnMut() -> (usize, usize)) -> (usize, f64, usize, usize) {
    let start = cpu_seconds();
    let mut rounds = 0;
    let mut counted = (0, 0);
    while rounds == 0 || cpu_seconds() - start < budget {
        counted = work();
        rounds += 1;
    }
    let per_round = (cpu_seconds() - start) / rounds as f64;
    (rounds, per_round, counted.0, counted.1)
}

fn tree_plies(r: &GameRecord) -> usize {
    r.moves.len() + r.variations.iter().map(|v| v.moves.len()).sum::<usize>()
}

fn bench(format: &str, files: &[Vec<u8>], budget: f64) {
    let bytes: usize = files.iter().map(Vec::len).sum();
    let opts = Options {
        overrides: Overrides {
            repetition: Some(RepetitionMode::Claim),
            ..Overrides::default()
        },
    };
    let read = time(budget, || {
        let recs = files.iter().flat_map(|f| records(format, f));
        recs.fold((0, 0), |(l, p), r| {
            (l + 1 + r.variations.len(), p + tree_plies(&r))
        })
    });
    let parsed: Vec<GameRecord> = files.iter().flat_map(|f| records(format, f)).collect();
    let check = time(budget, || {
        parsed.iter().fold((0, 0), |(l, p), r| {
            let g = check_record("bench", r, &opts);
            (l + g.lines, p + g.plies + g.variation_plies)
        })
    });
    for (phase, (rounds, s, lines, plies)) in [("read", read), ("check", check)] {
        println!(
            "{{\"format\": \"{format}\", \"phase\": \"{phase}\", \"files\": {}, \"bytes\": {bytes}, \"lines\": {lines}, \"plies\": {plies}, \"rounds\": {rounds}, \"cpu_seconds\": {s:.6}, \"mb_per_s\": {:.1}, \"plies_per_s\": {:.0}}}",
            files.len(),
            bytes as f64 / 1e6 / s,
            plies as f64 / s
        );
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut budget = 1.0;
    if let Some(i) = args.iter().position(|a| a == "--seconds") {
        budget = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(1.0);
        args.drain(i..(i + 2).min(args.len()));
    }
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
    let xqf_dir = args
        .first()
        .cloned()
        .unwrap_or(format!("{corpus}/xiangqi-xqf"));
    let dhtmlxq_dir = args
        .get(1)
        .cloned()
        .unwrap_or(format!("{corpus}/xiangqi-dhtmlxq"));
    bench("xqf", &read_all(&xqf_dir, &["xqf"]), budget);
    bench(
        "dhtmlxq",
        &read_all(&dhtmlxq_dir, &["txt", "html", "htm"]),
        budget,
    );
}
