// allocmap: fgrecord --alloc on Rust (t331): a HashMap built per call,
// as the seed's program does, and 200 blocks of 100,000 bytes kept to the end
// (process::exit drops nothing).
use std::collections::HashMap;
#[inline(never)]
fn build_map(n: u32) -> usize {
    let mut m: HashMap<u32, String> = HashMap::new();
    for i in 0..n {
        m.insert(i, format!("value {}", i));
    }
    m.len()
}
#[inline(never)]
fn keep_vec() -> Vec<Vec<u8>> {
    (0..200).map(|_| vec![7u8; 100_000]).collect()
}
fn main() {
    let mut t = 0;
    for _ in 0..20000 { t += build_map(64); }
    let kept = keep_vec();
    println!("{} {}", t, kept.len());
    std::process::exit(0);
}
