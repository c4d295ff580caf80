SELECT COALESCE(json_agg(_f), '[]'::json) AS result FROM (SELECT * FROM "generate_series"(CAST($1 AS integer), CAST($2 AS integer)) LIMIT 10001) AS _f;

SELECT COALESCE(json_agg(_f), '[]'::json) AS result FROM (SELECT * FROM "generate_series"(CAST($1 AS integer), CAST($2 AS integer)) LIMIT 10001) AS _f;
