fn a() {
    let rows = load(path)?;
    let count = rows.iter().count();
    println!("{count} rows");
}

fn b() {
    let rows = load(path)?;
    let count = rows.len();
    println!("{count} rows loaded");
}
