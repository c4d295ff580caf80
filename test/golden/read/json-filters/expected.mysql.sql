SELECT JSON_ARRAY("t0"."id", JSON_EXTRACT("t0"."attributes", '$')) AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE JSON_CONTAINS_PATH("t0"."attributes", 'one', CONCAT('$.', JSON_QUOTE($1))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE (JSON_CONTAINS_PATH("t0"."attributes", 'one', CONCAT('$.', JSON_QUOTE($1))) AND JSON_CONTAINS_PATH("t0"."attributes", 'one', CONCAT('$.', JSON_QUOTE($2)))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM "svc_golden"."products" AS "t0" WHERE JSON_CONTAINS("t0"."attributes", $1) LIMIT 2000;
