//! `--format json` and `--format sarif` are written game by game as the games are judged
//! (issue 19), and the output is byte for byte the document built whole from the same
//! reports, as arbiter wrote it before it streamed: over every fixture (many files, several
//! of many games, Gravon included) and a file of 3,000 games, with several worker threads.

use crate::bin;
use arbiter::input;
use arbiter::pipeline::{check_record, parse_chunk, Options};
use arbiter::report::{json, sarif, SourceWindow};
use arbiter::{Severity, Summary};
use serde_json::Value;
use std::path::PathBuf;

/// The JSON document and the SARIF log of `paths`, each built whole in memory.
fn built(paths: &[PathBuf]) -> (String, String) {
    let inputs = input::expand(paths);
    let mut summary = Summary {
        files: inputs.len(),
        ..Summary::default()
    };
    let (mut games, mut results) = (Vec::new(), Vec::new());
    for i in &inputs {
        for chunk in input::chunks(i) {
            let src = SourceWindow::of(&chunk);
            let uri = sarif::artifact_uri(&chunk.source);
            for rec in parse_chunk(&chunk) {
                let g = check_record(&chunk.source, &rec, &Options::default());
                summary.add(&g, Severity::Error);
                games.push(json::game(&g, &src));
                results.extend(g.findings.iter().map(|f| sarif::result(f, &uri, &src)));
            }
        }
    }
    let pretty = |v: &Value| serde_json::to_string_pretty(v).expect("JSON") + "\n";
    (
        pretty(&json::document(Value::Array(games), &summary)),
        pretty(&sarif::document(Value::Array(results))),
    )
}

fn streamed(paths: &[PathBuf], format: &str) -> String {
    bin::arbiter(["check", "--jobs", "3", "--format", format])
        .args(paths)
        .run()
        .stdout
}

#[test]
fn streamed_documents_are_the_documents_built_whole() {
    // cargo runs the tests from the crate's root, as `streamed` runs arbiter: the relative
    // names of the fixtures are the same both ways.
    let dir = std::env::temp_dir().join(format!("arbiter-streaming-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let many = dir.join("many.arb");
    let games = [
        "[Game \"jungle\"]\n[Result \"*\"]\n1. g3-g4 a7-a6 *\n",
        "[Game \"jungle\"]\n[Result \"1-0\"]\n1. g3-g4 a7-c7 *\n",
        "[Game \"xiangqi\"]\n[Result \"*\"]\n1. h2e2 h9g7 h0g2 *\n",
    ];
    std::fs::write(&many, games.concat().repeat(1_000)).expect("write");
    let empty = dir.join("empty.arb");
    std::fs::write(&empty, "").expect("write");
    let clean = PathBuf::from("fixtures/gravon/classic-clean.xml");
    for paths in [
        vec![PathBuf::from("fixtures")],
        vec![many.clone()],
        vec![empty],
        vec![clean],
    ] {
        let (json_doc, sarif_doc) = built(&paths);
        assert_eq!(streamed(&paths, "json"), json_doc, "{paths:?}");
        assert_eq!(streamed(&paths, "sarif"), sarif_doc, "{paths:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
