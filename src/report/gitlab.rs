//! GitLab Code Quality report (`arbiter check --format gitlab`): a JSON array with one issue a
//! finding, for `artifacts: reports: codequality:`. Each issue has the fields GitLab reads
//! (`description`, `check_name`, `fingerprint`, `severity`, `location.path`,
//! `location.lines.begin`); GitLab's schema is vendored in `schemas/vendor/gitlab/`.
//!
//! The fingerprint is stable from run to run and across edits that only move the game in its
//! file: SHA-256 over the path, the game's index in the file, the code, the ply, the message
//! and how many identical findings came before it in the game (so every issue's fingerprint is
//! unique), cut to 32 hexadecimal digits. Text from a log is made visible ([`super::escape`]):
//! GitLab shows it on merge-request pages.

use super::{escape, headline, help_and_rule, relative_path, SourceWindow};
use crate::finding::{Code, Finding, Severity};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// GitLab's severity of a finding: `parse-error` and `unsupported-game` (the game could not
/// be judged) are `critical`, other errors `major`, warnings `minor`, infos `info`.
fn severity(code: Code) -> &'static str {
    if code.is_unusable() {
        return "critical";
    }
    match code.severity() {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// The fingerprint of a finding (see the module documentation).
fn fingerprint(path: &str, game_index: usize, f: &Finding, repeat: usize) -> String {
    let ply = f.ply.map_or(String::new(), |p| p.to_string());
    let key = [
        path,
        &game_index.to_string(),
        f.code.as_str(),
        &ply,
        &f.message,
        &repeat.to_string(),
    ]
    .join("\u{0}");
    let digest = Sha256::digest(key.as_bytes());
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// The issues of the findings of game `game_index` (from 0); `src` is the window of the
/// source they point into. A finding in a binary source (XQF) is put on line 1.
pub fn issues(findings: &[Finding], src: &SourceWindow, game_index: usize) -> Vec<Value> {
    let path = relative_path(src.name);
    let mut seen: HashMap<(Code, Option<u32>, &str), usize> = HashMap::new();
    findings
        .iter()
        .map(|f| {
            let repeat = seen.entry((f.code, f.ply, &f.message)).or_insert(0);
            *repeat += 1;
            let (begin, end) = match (src.position(f.span.start), src.position(f.span.end)) {
                (Some((b, _)), Some((e, _))) => (b, e),
                _ => (1, 1),
            };
            let visible = |s: &str| escape::visible(s).into_owned();
            json!({
                "description": visible(&headline(f, game_index)),
                "check_name": f.code.as_str(),
                "fingerprint": fingerprint(&path, game_index, f, *repeat - 1),
                "severity": severity(f.code),
                "content": {"body": visible(&help_and_rule(f))},
                "location": {"path": visible(&path), "lines": {"begin": begin, "end": end}},
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Rule;
    use crate::types::Span;

    #[test]
    fn fingerprints_are_stable_and_unique() {
        let text = "a\nb\n";
        let src = SourceWindow::whole("f.arb", text);
        let f = Finding::new(
            Code::NoResult,
            Span::new(2, 3),
            "no result",
            Rule::LogResultTag,
        );
        let out = issues(&[f.clone(), f.clone()], &src, 0);
        // SHA-256 of "f.arb\0" "0\0" "no-result\0" "\0" "no result\0" "0", computed apart
        // (Python's hashlib), first 16 bytes
        assert_eq!(out[0]["fingerprint"], "4fb617e6f36e4aee89de96ffc6980279");
        assert_ne!(out[0]["fingerprint"], out[1]["fingerprint"]);
        assert_eq!(out[0]["location"]["lines"]["begin"], 2);
        // moving the game down the file keeps the fingerprint
        let moved = "\n\na\nb\n";
        let src2 = SourceWindow::whole("f.arb", moved);
        let mut g = f.clone();
        g.span = Span::new(4, 5);
        assert_eq!(
            issues(&[g], &src2, 0)[0]["fingerprint"],
            out[0]["fingerprint"]
        );
    }
}
