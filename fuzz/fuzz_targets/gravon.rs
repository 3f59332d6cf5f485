//! The Gravon XML importer, then the whole check of the bytes as a `.xml` file, the native
//! log `arbiter convert` writes from each record read back, and each game of the file judged
//! as it is alone.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let overrides = Default::default();
    for rec in arbiter::record::gravon::parse_gravon(&text, "fuzz.xml") {
        if let Ok(log) = arbiter::convert::convert_one(&rec, &overrides, None) {
            arbiter_fuzz::judge("converted.arb", log.as_bytes(), &Default::default());
        }
    }
    arbiter_fuzz::judge("fuzz.xml", data, &arbiter::Options::default());
    arbiter_fuzz::each_game_alone("fuzz.xml", data, &arbiter::Options::default());
});
