//! The binary as users run it: commands, output formats, exit codes, hostile input and boards.

#[path = "../support/bin.rs"]
mod bin;

mod archives;
mod cli;
mod content;
mod demo;
mod escaping;
mod formats;
mod game_index;
mod hostile;
mod output;
mod positions;
mod renderers;
mod report;
mod show;
mod streaming;
mod truthful;
mod verdict;
