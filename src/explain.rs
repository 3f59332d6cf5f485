//! `arbiter explain [CODE]`: what a finding code means, from the code table ([`crate::codes`])
//! that also writes docs/errors.md and SARIF's rules.

use crate::codes::{severity_label as severity, Code};
use crate::types::ExitStatus;
use std::io::Write;

/// Everything about one code: its severity, description, meaning, the rules it stands for,
/// an example and what to do (the text of docs/errors.md, without its Markdown headings).
pub fn code_text(code: Code) -> String {
    let d = code.doc();
    let mut s = format!(
        "{code} ({})\n\n{}\n\n{}\n\nrule: {}\n",
        severity(code),
        code.description(),
        d.meaning,
        code.source()
    );
    if let Some(e) = d.example {
        s.push_str(&format!("example: {e}\n"));
    }
    if let Some(t) = d.what_to_do {
        s.push_str(&format!("what to do: {t}\n"));
    }
    plain_links(&s)
}

/// `text` with each Markdown link `[words](target)` written for a terminal, `words
/// (docs/target)`, or `docs/target` when the words are its file: the code table's links are
/// relative to docs/, where docs/errors.md is.
fn plain_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let link = rest[open..].find("](").and_then(|mid| {
            let close = rest[open + mid..].find(')')?;
            Some((open + mid, open + mid + close))
        });
        let Some((mid, close)) = link.filter(|&(mid, _)| !rest[open + 1..mid].contains('[')) else {
            out.push_str(&rest[..=open]);
            rest = &rest[open + 1..];
            continue;
        };
        let (words, target) = (&rest[open + 1..mid], &rest[mid + 2..close]);
        let dir = if target.contains("://") { "" } else { "docs/" };
        out.push_str(&rest[..open]);
        // A link named by its own file is the path alone.
        if target.split('#').next() == Some(words) {
            out.push_str(&format!("{dir}{target}"));
        } else {
            out.push_str(&format!("{words} ({dir}{target})"));
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Every code, one a line: code, severity, description.
pub fn list() -> String {
    let width = Code::ALL
        .iter()
        .map(|c| c.as_str().len())
        .max()
        .unwrap_or(0);
    let mut s = String::new();
    for c in Code::ALL {
        s.push_str(&format!(
            "{:<width$}  {:<14}  {}\n",
            c.as_str(),
            severity(*c),
            c.description()
        ));
    }
    s.push_str("\n`arbiter explain CODE` tells more; docs/errors.md has them all.\n");
    s
}

/// The codes a mistyped `word` may have meant: those that contain it or that it contains.
fn near(word: &str) -> Vec<&'static str> {
    let w = word.trim().to_ascii_lowercase();
    Code::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !w.is_empty() && (c.contains(w.as_str()) || w.contains(c)))
        .collect()
}

/// Prints what `code` means to `out` (every code when `None`). An unknown code is a usage
/// error (exit 2) with the codes it may have meant on `err`.
pub fn run(code: Option<&str>, out: &mut dyn Write, err: &mut dyn Write) -> ExitStatus {
    let text = match code {
        None => list(),
        Some(word) => match Code::parse(word.trim()) {
            Some(c) => code_text(c),
            None => {
                let near = near(word);
                let hint = if near.is_empty() {
                    String::new()
                } else {
                    format!(" (did you mean {}?)", near.join(", "))
                };
                let _ = writeln!(
                    err,
                    "arbiter: unknown finding code `{}`{hint}; `arbiter explain` lists every code",
                    crate::escape::visible(word)
                );
                return ExitStatus::Unusable;
            }
        },
    };
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => ExitStatus::Clean,
        Err(e) => {
            let _ = writeln!(err, "arbiter: cannot write to standard output: {e}");
            ExitStatus::Unusable
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_written_for_a_terminal() {
        assert_eq!(
            plain_links("see [xiangqi.md](xiangqi.md#repetition), [a](https://x.org/b)."),
            "see docs/xiangqi.md#repetition, a (https://x.org/b)."
        );
        assert_eq!(
            plain_links("[not a link] and [x]( y"),
            "[not a link] and [x]( y"
        );
        assert_eq!(plain_links("[[a](b)"), "[a (docs/b)");
    }

    #[test]
    fn explain_names_severity_source_and_what_to_do() {
        let t = code_text(Code::TwoSquaresRule);
        assert!(
            t.starts_with("two-squares-rule (error)\n\nA piece moved"),
            "{t}"
        );
        assert!(t.contains("\nrule: rulings §1.4\n"), "{t}");
        assert!(t.contains("what to do: a ruling for the opponent"), "{t}");
        assert!(code_text(Code::ParseError).starts_with("parse-error (error (exit 2))"));
        assert_eq!(list().lines().count(), Code::ALL.len() + 2);
        assert_eq!(near("two-squares"), ["two-squares-rule"]);
        assert_eq!(near("perpetual"), ["perpetual-check", "perpetual-chase"]);
    }
}
