fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let (p, d) = blazar_syntax::parse(&text, blazar_syntax::FileId(0));
    for x in &d {
        println!("ERR {:?} {}", x.span, x.message);
    }
    print!("{}", blazar_syntax::printer::print_program(&p));
}
