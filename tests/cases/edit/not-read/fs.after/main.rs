fn main() {
    let total = add(3, 4);
    println!("{total}");
}

fn add(a: i32, b: i32) -> i32 {
    a + b
}
