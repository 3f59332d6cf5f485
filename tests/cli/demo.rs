//! The README's first command, `arbiter check demo/`: every demonstration record judged as its
//! header comment works it out by hand (outcome and findings), the whole run exiting 1, and
//! the screen a newcomer sees pinned by a snapshot.

use crate::bin;

/// A demonstration record's hand-worked verdict: plies replayed, the outcome (result,
/// reason, last ply) and the findings (code, ply).
struct Verdict {
    file: &'static str,
    plies: u64,
    outcome: Option<(&'static str, &'static str, u64)>,
    findings: &'static [(&'static str, Option<u64>)],
}

/// The verdicts, as each record's header states them.
const VERDICTS: &[Verdict] = &[
    Verdict {
        file: "demo/barrage-two-squares.arb",
        plies: 8,
        outcome: None,
        findings: &[("two-squares-rule", Some(8))],
    },
    Verdict {
        file: "demo/duel-miner-clears-the-way.arb",
        plies: 7,
        outcome: Some(("1-0", "flag-captured", 7)),
        findings: &[],
    },
    Verdict {
        file: "demo/jieqi-hidden-capture.arb",
        plies: 4,
        outcome: None,
        findings: &[],
    },
    Verdict {
        file: "demo/jungle-repetition.arb",
        plies: 9,
        outcome: None,
        findings: &[
            ("jungle-repetition", Some(9)),
            ("threefold-repetition", Some(9)),
        ],
    },
    Verdict {
        file: "demo/spionage-headquarters.arb",
        plies: 17,
        outcome: Some(("1-0", "headquarters-captured", 17)),
        findings: &[],
    },
    Verdict {
        file: "demo/stratego-flag-capture.arb",
        plies: 7,
        outcome: Some(("1-0", "flag-captured", 7)),
        findings: &[],
    },
    Verdict {
        file: "demo/veldslag-spy-takes-general.arb",
        plies: 6,
        outcome: None,
        findings: &[],
    },
    Verdict {
        file: "demo/xiangqi-perpetual-chase.arb",
        plies: 8,
        outcome: Some(("0-1", "perpetual-chase", 8)),
        findings: &[("perpetual-chase", Some(8))],
    },
];

#[test]
fn every_demonstration_record_gets_its_hand_worked_verdict() {
    let (code, out, _) = bin::run(&["check", "--format", "json", "demo"]).parts();
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), VERDICTS.len(), "one game a record");
    for (g, v) in games.iter().zip(VERDICTS) {
        assert_eq!(g["source"], v.file);
        assert_eq!(g["plies"], v.plies, "{}", v.file);
        let outcome = g["outcome"].as_object().map(|o| {
            (
                o["result"].as_str().unwrap(),
                o["reason"].as_str().unwrap(),
                o["ply"].as_u64().unwrap(),
            )
        });
        assert_eq!(outcome, v.outcome, "{}", v.file);
        let findings: Vec<(&str, Option<u64>)> = g["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["code"].as_str().unwrap(), f["ply"].as_u64()))
            .collect();
        assert_eq!(findings, v.findings, "{}", v.file);
    }
    assert_eq!(doc["summary"]["errors"], 3);
}

#[test]
fn the_first_command_prints_one_readable_screen() {
    let (code, out, err) = bin::run(&["check", "demo/"]).parts();
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "arbiter: 8 files, 8 games, 66 plies: 3 errors, 0 warnings, 1 info\n"
    );
    insta::assert_snapshot!("demo_human", out);
}
