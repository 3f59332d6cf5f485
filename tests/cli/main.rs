//! The binary as users run it: commands, output formats, exit codes, hostile input and boards.

mod cli;
mod formats;
mod game_index;
mod hostile;
mod report;
mod show;
