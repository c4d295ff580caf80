SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list(_f) END) AS result FROM (SELECT * FROM "generate_series"(CAST($1 AS INTEGER), CAST($2 AS INTEGER)) LIMIT 10001) AS _f;

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list(_f) END) AS result FROM (SELECT * FROM "generate_series"(CAST($1 AS INTEGER), CAST($2 AS INTEGER)) LIMIT 10001) AS _f;
