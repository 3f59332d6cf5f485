//! The native log grammar (grammar/log.pest) and the fast path beside it, then the whole
//! check of the text as a `.arb` file.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for rec in arbiter::record::parse::parse_log(&text) {
        assert!(rec.span.end <= text.len());
        for m in &rec.moves {
            assert!(m.span().end <= text.len() && m.text_span().end <= text.len());
        }
    }
    let _ = arbiter::record::fast::parse_fast(&text, 0);
    arbiter_fuzz::judge("fuzz.arb", data, &arbiter::Options::default());
    arbiter_fuzz::each_game_alone("fuzz.arb", data, &arbiter::Options::default());
});
