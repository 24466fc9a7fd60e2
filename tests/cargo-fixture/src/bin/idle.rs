//! idle: returns at once, so a profile of it has no samples.
fn main() {
    println!("idle");
}
