fn main() {
    std::process::exit(sensor_hash::main::<sensor_hash::slow::Sensors>());
}
