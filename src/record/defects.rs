//! At most [`MAX_LISTED`] `record-defect` warnings a game are listed one by one; the rest are
//! counted in one more. A log of a million repeated tags once held a million findings: 3.6 GB
//! of memory for an 8 MB log in `--format gitlab`, and a report no one reads to the end.

use super::Span;
use crate::finding::{Code, Finding};
use crate::rulebook::Rule;

/// Record defects a game lists one by one.
pub const MAX_LISTED: usize = 100;

/// Record defects a reader found but did not list: how many, and where the first and the
/// last of them are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unlisted {
    /// How many.
    pub count: usize,
    /// The first one's span.
    pub first: Span,
    /// The last one's span.
    pub last: Span,
}

impl Unlisted {
    /// One more, at `span` (after the others).
    pub fn add(this: &mut Option<Unlisted>, span: Span) {
        match this {
            Some(u) => {
                u.count += 1;
                u.last = span;
            }
            None => {
                *this = Some(Unlisted {
                    count: 1,
                    first: span,
                    last: span,
                })
            }
        }
    }
}

/// How many `record-defect` findings `findings` lists.
pub fn listed(findings: &[Finding]) -> usize {
    findings
        .iter()
        .filter(|f| f.code == Code::RecordDefect)
        .count()
}

/// Keeps the first [`MAX_LISTED`] `record-defect` findings of `findings` (every other finding
/// keeps its place) and adds one that counts the rest and `unlisted` (those a reader never
/// made), at the first of them, labelled at the last. Call once a game. Linear.
pub fn fold(findings: &mut Vec<Finding>, mut unlisted: Option<Unlisted>) {
    if unlisted.is_none() && listed(findings) <= MAX_LISTED {
        return;
    }
    let mut kept = 0;
    let mut dropped: Option<Unlisted> = None;
    findings.retain(|f| {
        if f.code != Code::RecordDefect || kept < MAX_LISTED {
            kept += usize::from(f.code == Code::RecordDefect);
            return true;
        }
        Unlisted::add(&mut dropped, f.span);
        false
    });
    // The dropped findings came first in the record, then what the reader never made.
    if let (Some(d), Some(u)) = (dropped, unlisted) {
        unlisted = Some(Unlisted {
            count: d.count + u.count,
            first: d.first,
            last: u.last,
        });
    } else {
        unlisted = unlisted.or(dropped);
    }
    let Some(u) = unlisted else { return };
    findings.push(
        Finding::new(
            Code::RecordDefect,
            u.first,
            format!(
                "{} more record defects in this game (only the first {MAX_LISTED} are listed)",
                u.count
            ),
            Rule::ListedDefects,
        )
        .label("the first of them")
        .with_label(u.last, "the last of them")
        .help("correct the defects listed and check the record again to see the rest"),
    );
}
