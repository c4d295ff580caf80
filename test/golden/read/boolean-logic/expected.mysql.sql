SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."products" AS "t0" WHERE ("t0"."price" > $1 OR "t0"."sku" = $2) ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."products" AS "t0" WHERE ("t0"."price" > $1 AND (NOT COALESCE("t0"."category_id" = $2, FALSE))) ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id") AS "__svc_j" FROM "svc_golden"."orders" AS "t0" WHERE ("t0"."customer_id" = $1 AND "t0"."status" = $2) LIMIT 2000) AS "_s";
