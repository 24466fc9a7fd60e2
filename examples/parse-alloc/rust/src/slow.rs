//! parse-alloc, slow version: split the line into a `Vec<String>`, then
//! copy the fields out of it. Every field of every line is an allocation.

use crate::{lines, parse_status, Summary};

/// One parsed line, every field owned.
#[derive(Debug)]
pub struct Entry {
    pub timestamp: String,
    pub level: String,
    pub component: String,
    pub message: String,
    pub status: u32,
}

/// Parses one line, or returns `None` when it is malformed.
#[inline(never)]
pub fn parse(line: &str) -> Option<Entry> {
    let parts: Vec<String> = line.split(' ').map(|s| s.to_string()).collect();
    let n = parts.len();
    if n < 5 || parts[0].is_empty() || parts[1].is_empty() || parts[2].is_empty() {
        return None;
    }
    let status = parse_status(&parts[n - 1])?;
    Some(Entry {
        timestamp: parts[0].clone(),
        level: parts[1].clone(),
        component: parts[2].clone(),
        message: parts[3..n - 1].join(" "),
        status,
    })
}

/// Summarizes every line of `log`.
#[inline(never)]
pub fn summarize(log: &str) -> Summary {
    let mut s = Summary::default();
    for line in lines(log) {
        s.lines += 1;
        match parse(line) {
            None => s.malformed += 1,
            Some(e) => s.add(&e.level, &e.component, &e.message, e.status),
        }
    }
    s
}
