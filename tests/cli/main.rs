//! The binary as users run it: commands, output formats, exit codes, hostile input and boards.

mod archives;
mod cli;
mod demo;
mod formats;
mod game_index;
mod hostile;
mod renderers;
mod report;
mod show;
mod verdict;
