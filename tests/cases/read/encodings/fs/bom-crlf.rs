fn main() {
    println!("hé");
}
