fn main() {
    let total = add(1, 2);
    println!("{total}");
}

fn add(a: i32, b: i32) -> i32 {
    a + b
}
