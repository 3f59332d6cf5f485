//! Every ruleset judged against hand-worked fixtures in `fixtures/<game>/`.

#[path = "../support/bin.rs"]
mod bin;
#[path = "../support/corpus.rs"]
mod corpus_support;
#[path = "../support/fixtures.rs"]
mod fixtures;

mod claims;
mod history;
mod jieqi;
mod jungle;
mod moves;
mod spionage;
mod stratego;
mod xiangqi;
mod xiangqi_notation;
