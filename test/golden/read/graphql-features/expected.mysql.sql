SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id", 'name', "t0"."name", 'email', "t0"."email") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."customers" AS "t0" WHERE "t0"."country" = $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('__typename', $1, 'id', "t0"."id", 'name', "t0"."name") AS "__svc_j" FROM "svc_golden"."customers" AS "t0" WHERE "t0"."country" = $2 LIMIT 2000) AS "_s";

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('id', "t0"."id", 'name', "t0"."name") AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."id" ASC) AS "__svc_rn" FROM "svc_golden"."tags" AS "t0" ORDER BY "t0"."id" ASC LIMIT 1) AS "_s";
