-- sqlite-only (issue 41): in how many packages each trigram of the name and file-name search tables is
-- (`db::trigrams`, as for the contacts in migration 0028). A dealer's search with a common
-- term ("Aktion", "flyer": in nearly every package) is then checked in the dealer's own
-- packages instead of letting the trigram table hand over 20,000 candidates to probe.
create virtual table package_name_search_vocab using fts5vocab(package_name_search, 'row');
create virtual table package_file_search_vocab using fts5vocab(package_file_search, 'row');
