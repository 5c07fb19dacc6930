use crate::old_name;

fn twice() -> u32 {
    old_name() * 2
}
