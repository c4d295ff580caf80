CREATE TABLE products (sku VARCHAR(20) PRIMARY KEY, name VARCHAR(100) NOT NULL, warehouse VARCHAR(20), in_stock INT NOT NULL);
INSERT INTO products VALUES ('BK-1', 'SQL book', 'north', 12), ('BK-2', 'Graph book', 'south', 0), ('HW-9', 'Keyboard', 'north', 3);
