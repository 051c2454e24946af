//! Who may do what, and what keeps it so: the access tokens and the
//! people they belong to (`access`), the codes people type and cards print
//! (`codes`), secrets that compare in constant time
//! and never print (`secret`), HTTPS (`tls`), files only their owner reads
//! (`private_file`), and the data folder locked against a second server
//! (`data_lock`).

pub mod access;
pub mod codes;
pub mod data_lock;
pub mod private_file;
pub mod secret;
pub mod tls;
