//! words N: counts, in N thousand words drawn from a small vocabulary,
//! those that are not stop words. is_stopword builds the set of stop
//! words again on every call: the slow version, which
//! tests/t611-cargo-fg-compare.sh fixes (a binary search of the sorted
//! list) in a commit of its own.
use std::env;

/// Sorted, for a binary search.
const STOPWORDS: [&str; 24] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "in", "is", "it",
    "its", "of", "on", "that", "the", "to", "was", "were", "will", "with",
];

const VOCABULARY: [&str; 16] = [
    "the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "and", "runs", "to",
    "its", "den", "in", "woods",
];

#[inline(never)]
fn is_stopword(w: &str) -> bool {
    STOPWORDS.iter().copied().collect::<std::collections::HashSet<&str>>().contains(w)
}

#[inline(never)]
fn count(n: u64) -> u64 {
    let mut x: u64 = 12345;
    let mut kept = 0;
    for _ in 0..n {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if !is_stopword(VOCABULARY[(x >> 60) as usize]) {
            kept += 1;
        }
    }
    kept
}

fn main() {
    let n: u64 = env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    println!("{}", count(n * 1000));
}
