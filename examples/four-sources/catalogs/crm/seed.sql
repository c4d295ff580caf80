CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, country VARCHAR, currency VARCHAR);
INSERT INTO customers VALUES (1, 'Ada', 'GB', 'GBP'), (2, 'Alan', 'GB', 'GBP'), (3, 'Grace', 'US', 'USD'), (4, 'Edsger', 'NL', 'EUR');
