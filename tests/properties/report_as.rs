//! Property: a page of `arbiter report --as SIDE` holds SIDE's view and nothing more, not
//! even in its data (issue 25).
//!
//! The random legal Stratego and Spionage games of [`super::show`] (whose views that module
//! checks against its own recount of who saw what) are written as a player's page. The page
//! is then read back as a browser would get it: the drawings of pieces it holds (each named by
//! its terminal token, `rX*`, `b?`) and the game's data block, from which the position after
//! every ply is rebuilt. That position, square by square, and the lost-piece lines must be
//! exactly `show --as SIDE`'s ([`BoardView::seen_by`]); the page holds no drawing of a piece
//! that no position uses, and one view only.

use super::show::{all_views, army, spionage_game, stratego_game, SPIONAGE_ARMY, STRATEGO_ARMY};
use arbiter::pipeline::{check_source, Options, Source};
use arbiter::record::parse::parse_log;
use arbiter::report::board::BoardView;
use arbiter::report::html::{self, GameInput, Kits};
use arbiter::report::svg::Faces;
use arbiter::rules::Side;
use proptest::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The terminal drawing's token of each square (`None`: empty).
fn tokens(v: &BoardView) -> Vec<Option<String>> {
    v.pieces
        .iter()
        .map(|p| {
            p.map(|p| {
                let mut t = format!(
                    "{}{}",
                    v.initial(p.owner),
                    p.identity.map_or('?', |i| i.letter)
                );
                let known = p.known_to[p.owner.other().index()];
                if p.identity.is_some() && known {
                    t.push('*');
                }
                t
            })
        })
        .collect()
}

/// The page of `text`'s game for `side`.
fn player_page(text: &str, side: Side) -> String {
    let src = Source::from_bytes("random.arb", text.as_bytes().to_vec());
    let report = &check_source(&src, &Options::default())[0];
    let rec = &parse_log(text)[0];
    let g = GameInput {
        number: 0,
        record: rec,
        report,
        for_player: true,
    };
    let (mut kits, mut section) = (Kits::default(), String::new());
    let row = html::game_section(&g, Some(side), &mut kits, Faces::Letters, &mut section);
    html::page("t", "s", &[row], &kits, &section)
}

/// The piece drawings of a page: number -> token.
fn kit(page: &str) -> BTreeMap<i64, String> {
    page.split("<g id=\"p")
        .skip(1)
        .map(|s| {
            let n = s[..s.find('"').unwrap()].parse().unwrap();
            let t = s.split("data-token=\"").nth(1).unwrap();
            (n, t[..t.find('"').unwrap()].to_string())
        })
        .collect()
}

fn data(page: &str) -> Value {
    let start = page.find("class=\"data\">").unwrap() + "class=\"data\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

fn check_page(text: &str) -> Result<(), TestCaseError> {
    let (views, _) = all_views(text);
    for side in [Side::First, Side::Second] {
        let page = player_page(text, side);
        let kit = kit(&page);
        let d = data(&page);
        let vs = d["views"].as_array().unwrap();
        prop_assert_eq!(vs.len(), 1, "one view");
        let v = &vs[0];
        let num = |x: &Value| x.as_i64().unwrap();
        let mut pos: Vec<i64> = v["start"].as_array().unwrap().iter().map(num).collect();
        let changes = v["changes"].as_array().unwrap();
        let lost = v["lost"].as_array().unwrap();
        let mut used = BTreeSet::new();
        for (ply, view) in &views {
            if *ply > 0 {
                let c: Vec<i64> = changes[*ply as usize - 1]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(num)
                    .collect();
                for pair in c.chunks(2) {
                    pos[pair[0] as usize] = pair[1];
                }
            }
            let shown: Vec<Option<String>> = pos
                .iter()
                .map(|&p| (p >= 0).then(|| kit[&p].clone()))
                .collect();
            used.extend(pos.iter().filter(|&&p| p >= 0).copied());
            let seen = view.seen_by(side);
            prop_assert_eq!(&shown, &tokens(&seen), "ply {} as {:?}", ply, side);
            let lines = lost
                .iter()
                .rev()
                .find(|l| l[0].as_u64().unwrap() <= *ply as u64)
                .unwrap();
            let want = [seen.lost_line(Side::First), seen.lost_line(Side::Second)];
            let got: Vec<String> = lines[1]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            prop_assert_eq!(&got[..2], &want[..], "lost pieces after ply {}", ply);
        }
        let drawn: BTreeSet<i64> = kit.keys().copied().collect();
        prop_assert_eq!(drawn, used, "no drawing the view does not use");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn stratego_player_pages_hold_only_their_view(
        red in army(STRATEGO_ARMY),
        blue in army(STRATEGO_ARMY),
        dice in prop::collection::vec((any::<bool>(), any::<u16>()), 1..120),
    ) {
        check_page(&stratego_game(red, blue, &dice))?;
    }

    #[test]
    fn spionage_player_pages_hold_only_their_view(
        white in army(SPIONAGE_ARMY),
        black in army(SPIONAGE_ARMY),
        dice in prop::collection::vec((any::<bool>(), any::<u16>()), 1..200),
    ) {
        check_page(&spionage_game(white, black, &dice))?;
    }
}
