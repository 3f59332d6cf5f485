//! Output formats and triage flags of `arbiter check` (issues #10, #28): JSON Lines and SARIF
//! pinned by snapshots; `--select`, `--ignore`, `--fail-on`, `--exit-zero`, `--quiet`,
//! `--statistics` and `--jobs` by their exit codes and output; `explain`, `completions`, `man`
//! and `show --svg -`. (Every format on the same sample findings: `renderers.rs`.)

use crate::bin;

const TWO_SQUARES: &str = "fixtures/history/two-squares-fourth-move.arb";
const VELDSLAG_80: &str = "fixtures/history/veldslag-no-capture-80.arb";

#[test]
fn jsonl_is_one_object_per_game_then_the_summary() {
    let (code, out, _) =
        bin::run(&["check", "--format", "jsonl", TWO_SQUARES, VELDSLAG_80]).parts();
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["summary"]["games"], 2);
    let out = out.replace(env!("CARGO_PKG_VERSION"), "[version]");
    insta::assert_snapshot!("jsonl", out);
}

#[test]
fn sarif_has_stable_rule_ids_and_regions() {
    let (code, out, _) =
        bin::run(&["check", "--format", "sarif", TWO_SQUARES, VELDSLAG_80]).parts();
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["version"], "2.1.0");
    let run0 = &doc["runs"][0];
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), arbiter::Code::ALL.len());
    for r in run0["results"].as_array().unwrap() {
        let idx = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[idx]["id"], r["ruleId"]);
    }
    let out = out.replace(env!("CARGO_PKG_VERSION"), "[version]");
    insta::assert_snapshot!("sarif", out);
}

#[test]
fn select_ignore_and_fail_on() {
    // only infos selected: no error left, exit 0
    let (code, out, _) = bin::run(&[
        "check",
        "--format",
        "jsonl",
        "--select",
        "no-capture-50,no-capture-80",
        TWO_SQUARES,
        VELDSLAG_80,
    ])
    .parts();
    assert_eq!(code, 0);
    assert!(!out.contains("two-squares-rule"));
    assert!(out.contains("no-capture-80"));
    // the error ignored: exit 0
    let (code, _, _) = bin::run(&["check", "--ignore", "two-squares-rule", TWO_SQUARES]).parts();
    assert_eq!(code, 0);
    // infos fail the run at --fail-on info
    let (code, _, _) = bin::run(&["check", "--fail-on", "info", VELDSLAG_80]).parts();
    assert_eq!(code, 1);
    let (code, _, _) = bin::run(&["check", VELDSLAG_80]).parts();
    assert_eq!(code, 0);
    // --exit-zero keeps 0 despite errors, but unusable input still exits 2
    let (code, _, _) = bin::run(&["check", "--exit-zero", TWO_SQUARES]).parts();
    assert_eq!(code, 0);
    let (code, _, _) = bin::run(&[
        "check",
        "--exit-zero",
        "--ignore",
        "parse-error",
        "no-such-file.arb",
    ])
    .parts();
    assert_eq!(code, 2);
    // an unknown code is a usage error
    let (code, _, err) = bin::run(&["check", "--select", "no-such-code", TWO_SQUARES]).parts();
    assert_eq!(code, 2);
    assert!(err.contains("unknown finding code"), "{err}");
}

#[test]
fn quiet_prints_only_the_summary_and_jobs_keep_the_order() {
    let (code, out, err) = bin::run(&["check", "--quiet", TWO_SQUARES]).parts();
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("1 error"), "{err}");
    let (_, one, _) = bin::run(&["check", "--jobs", "1", "--format", "jsonl", "fixtures"]).parts();
    let (_, two, _) = bin::run(&["check", "--jobs", "2", "--format", "jsonl", "fixtures"]).parts();
    assert_eq!(
        one, two,
        "output is in input order whatever the thread count"
    );
    assert!(one.lines().count() > 200);
}

/// docs/errors.md has an entry for every finding code, with its severity as the code has it,
/// and the fixture each entry names as its example exists.
#[test]
fn every_code_is_in_the_error_catalogue() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/errors.md")).expect("docs/errors.md");
    for code in arbiter::Code::ALL {
        let head = format!("\n## {}\n", code.as_str());
        let at = doc
            .find(&head)
            .unwrap_or_else(|| panic!("docs/errors.md has no entry for {code}"));
        let entry = &doc[at + head.len()..];
        let entry = &entry[..entry.find("\n## ").unwrap_or(entry.len())];
        assert!(
            entry
                .trim_start()
                .starts_with(&format!("**{}", code.severity().as_str())),
            "{code}: the entry must start with its severity"
        );
        let example = entry
            .split('`')
            .find(|s| s.starts_with("fixtures/") || s.starts_with("../shared/"))
            .unwrap_or_else(|| panic!("{code}: no example"));
        if example.starts_with("fixtures/") {
            assert!(root.join(example).is_file(), "{code}: {example} is missing");
        }
    }
}

#[test]
fn quiet_silences_only_the_human_report() {
    let (code, out, err) = bin::run(&["check", "-q", "--format", "jsonl", TWO_SQUARES]).parts();
    assert_eq!(code, 1);
    assert_eq!(
        out.lines().count(),
        2,
        "the game and the summary line: {out}"
    );
    assert!(out.contains("two-squares-rule"));
    assert!(err.contains("1 error"));
    for format in ["json", "sarif", "github", "junit", "rdjson", "gitlab"] {
        let (_, quiet, _) = bin::run(&["check", "-q", "--format", format, TWO_SQUARES]).parts();
        let (_, loud, _) = bin::run(&["check", "--format", format, TWO_SQUARES]).parts();
        assert_eq!(quiet, loud, "-q changes --format {format}");
    }
}

#[test]
fn statistics_count_by_code_and_by_file() {
    let (code, out, err) = bin::run(&["check", "--statistics", "demo"]).parts();
    assert_eq!(code, 1, "the findings still decide the exit code");
    assert!(err.starts_with("arbiter: 8 files"), "{err}");
    insta::assert_snapshot!("statistics_demo", out);
    let (code, out, _) = bin::run(&[
        "check",
        "--statistics",
        "demo/duel-miner-clears-the-way.arb",
    ])
    .parts();
    assert_eq!((code, out.as_str()), (0, "no findings\n"));
    let (code, _, err) = bin::run(&["check", "--statistics", "--format", "json", "demo"]).parts();
    assert_eq!(code, 2);
    assert!(
        err.contains("--statistics is for the human format only"),
        "{err}"
    );
}

#[test]
fn explain_prints_a_code_from_the_table() {
    let (code, out, _) = bin::run(&["explain", "perpetual-chase"]).parts();
    assert_eq!(code, 0);
    insta::assert_snapshot!("explain_perpetual_chase", out);
    let (code, out, _) = bin::run(&["explain"]).parts();
    assert_eq!(code, 0);
    for c in arbiter::Code::ALL {
        assert!(out.contains(c.description()), "{c} missing from the list");
    }
    let (code, out, err) = bin::run(&["explain", "two-squares"]).parts();
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("did you mean two-squares-rule?"), "{err}");
}

#[test]
fn completions_and_the_manual_page() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out, _) = bin::run(&["completions", shell]).parts();
        assert_eq!(code, 0, "{shell}");
        for word in ["check", "explain", "completions", "statistics"] {
            assert!(out.contains(word), "{shell} completions lack {word}");
        }
    }
    let (code, out, _) = bin::run(&["completions", "tcsh"]).parts();
    assert_eq!((code, out.as_str()), (2, ""));
    let (code, out, _) = bin::run(&["man"]).parts();
    assert_eq!(code, 0);
    assert!(
        out.starts_with(".ie \\n(.g .ds Aq"),
        "{}",
        &out[..80.min(out.len())]
    );
    assert!(
        out.contains(".TH arbiter 1") && out.contains("explain"),
        "{out}"
    );
}

#[test]
fn show_writes_the_svg_to_stdout() {
    let (code, out, err) = bin::run(&["show", TWO_SQUARES, "--ply", "8", "--svg", "-"]).parts();
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<svg") || out.starts_with("<?xml"), "{out}");
    assert!(out.trim_end().ends_with("</svg>"));
    assert!(err.is_empty(), "no \"wrote\" line for stdout: {err}");
}
