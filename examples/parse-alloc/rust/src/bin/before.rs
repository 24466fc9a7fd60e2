fn main() {
    std::process::exit(parse_alloc::main(parse_alloc::slow::summarize));
}
