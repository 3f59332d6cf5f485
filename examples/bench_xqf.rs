//! Benchmark of the XQF reader (issue 23): reads every `.xqf` file under the folders given
//! (default `../shared/corpus/xiangqi-xqf`) into memory, then times `record::xqf::read_xqf`
//! over all of them, the median of 9 runs, in MB/s and records/s (one core). With `--dump
//! FILE` it prints one file's record instead: tags, lines, comments, findings; with `--lines
//! DIR` every line of every file, one a row: file, line number, FEN, the line's ICCS moves
//! from the start (the parent's plies up to the branch, then its own), for a cross-check.
//!
//! Run: `cargo run --release --example bench_xqf [-- DIR...]`, `-- --dump FILE` or
//! `-- --lines DIR`.

use arbiter::record::xqf::read_xqf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, path] = args.as_slice() {
        match flag.as_str() {
            "--dump" => return dump(path),
            "--lines" => return lines(path),
            _ => {}
        }
    }
    let dirs = if args.is_empty() {
        vec![concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/xiangqi-xqf").to_string()]
    } else {
        args
    };
    let files: Vec<Vec<u8>> = dirs
        .iter()
        .flat_map(|d| xqf_files(d))
        .map(|p| std::fs::read(p).expect("readable file"))
        .collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let mut times = Vec::new();
    let mut plies = 0;
    for _ in 0..9 {
        let t = Instant::now();
        plies = 0;
        for f in &files {
            let r = read_xqf(f, 0);
            plies += r.moves.len() + r.variations.iter().map(|v| v.moves.len()).sum::<usize>();
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let s = times[times.len() / 2];
    println!(
        "{{\"files\": {}, \"bytes\": {bytes}, \"plies\": {plies}, \"seconds\": {s:.6}, \"mb_per_s\": {:.1}, \"records_per_s\": {:.0}}}",
        files.len(),
        bytes as f64 / 1e6 / s,
        files.len() as f64 / s
    );
}

/// The `.xqf` files under `dir` (any case), sorted.
fn xqf_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("xqf")))
        .collect();
    out.sort();
    out
}

fn lines(dir: &str) {
    for path in xqf_files(dir) {
        let r = read_xqf(&std::fs::read(&path).expect("readable file"), 0);
        let fen = r.tag_value("FEN").unwrap_or("");
        for i in 0..=r.variations.len() {
            let moves: Vec<&str> = r.line_plies(i).iter().map(|m| m.text()).collect();
            println!("{}\t{i}\t{fen}\t{}", path.display(), moves.join(" "));
        }
    }
}

fn dump(file: &str) {
    let bytes = std::fs::read(file).expect("readable file");
    let r = read_xqf(&bytes, 0);
    for t in &r.tags {
        println!(
            "[{} \"{}\"] @{:?}",
            t.name.value, t.value.value, t.value.span
        );
    }
    let text = |m: &[arbiter::record::MoveRecord]| {
        m.iter().map(|m| m.text()).collect::<Vec<_>>().join(" ")
    };
    println!("line 0: {}", text(&r.moves));
    for (i, v) in r.variations.iter().enumerate() {
        println!(
            "line {} (parent {}, start {}): {}",
            i + 1,
            v.parent,
            v.start,
            text(&v.moves)
        );
    }
    for c in &r.comments {
        println!(
            "comment line {} after {} @{:?}: {}",
            c.line, c.after, c.span, c.text
        );
    }
    for f in &r.findings {
        println!(
            "{} @{:?}: {} ({})",
            f.code,
            f.span,
            f.message,
            f.help.as_deref().unwrap_or("")
        );
    }
}
