fn main() {
    let total = add(40, 2);
    println!("{total}");
}

fn add(a: i32, b: i32) -> i32 {
    a.wrapping_add(b)
}
