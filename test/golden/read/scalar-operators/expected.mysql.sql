SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."customers" AS "t0" WHERE "t0"."country" = $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."customers" AS "t0" WHERE "t0"."country" IN (SELECT "v" FROM JSON_TABLE($1, '$[*]' COLUMNS ("v" LONGTEXT PATH '$')) AS "in_list") ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id", 'price', CAST("t0"."price" AS DOUBLE)) AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."products" AS "t0" WHERE ("t0"."price" > $1 AND "t0"."price" <= $2) ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."products" AS "t0" WHERE "t0"."price" <> $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id", 'sku', "t0"."sku") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."products" AS "t0" WHERE "t0"."sku" LIKE $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('name', "t0"."name") AS "__svc_j" FROM "svc_golden"."customers" AS "t0" WHERE LOWER("t0"."name") LIKE LOWER($1) LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."products" AS "t0" WHERE "t0"."name" REGEXP $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('name', "t0"."name") AS "__svc_j" FROM "svc_golden"."customers" AS "t0" WHERE "t0"."email" IS NULL LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id", 'note', "t0"."note") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."orders" AS "t0" WHERE "t0"."note" IS NOT NULL ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('sku', "t0"."sku") AS "__svc_j" FROM "svc_golden"."products" AS "t0" WHERE "t0"."in_stock" = CAST($1 AS SIGNED) LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id", 'ordered_at', IF(MICROSECOND("t0"."ordered_at") = 0, DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%s.%fZ'))) AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."orders" AS "t0" WHERE ("t0"."ordered_at" >= CAST($1 AS DATETIME(6)) AND "t0"."ordered_at" < CAST($2 AS DATETIME(6))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id", 'ship_date', DATE_FORMAT("t0"."ship_date", '%Y-%m-%d')) AS "__svc_j" FROM "svc_golden"."orders" AS "t0" WHERE "t0"."ship_date" <= CAST($1 AS DATE) LIMIT 2000) AS "_s";
