SELECT JSON_ARRAY("t0"."sku", CAST("t0"."price" AS DOUBLE)) AS r FROM "svc_golden"."products" AS "t0" ORDER BY "t0"."price" DESC LIMIT 2;

SELECT JSON_ARRAY("t0"."id") AS r FROM "svc_golden"."products" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2 OFFSET 1;

SELECT JSON_ARRAY("t0"."id", (SELECT JSON_ARRAY("t1"."name") AS result FROM "svc_golden"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id")) AS r FROM "svc_golden"."orders" AS "t0" ORDER BY (SELECT "t1"."name" FROM "svc_golden"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id" LIMIT 1) ASC, "t0"."id" DESC LIMIT 2000;

SELECT JSON_ARRAY("t0"."name") AS r FROM "svc_golden"."customers" AS "t0" ORDER BY "t0"."name" DESC LIMIT 2000;

SELECT COALESCE(JSON_ARRAYAGG("_s"."__svc_j" ORDER BY "_s"."__svc_rn"), JSON_ARRAY()) AS result FROM (SELECT JSON_OBJECT('customer_id', "t0"."customer_id", 'ordered_at', IF(MICROSECOND("t0"."ordered_at") = 0, DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%s.%fZ'))) AS "__svc_j", ROW_NUMBER() OVER (ORDER BY "t0"."customer_id" ASC, "t0"."customer_id" ASC, "t0"."ordered_at" DESC) AS "__svc_rn" FROM (SELECT * FROM (SELECT "t0".*, ROW_NUMBER() OVER (PARTITION BY "t0"."customer_id" ORDER BY "t0"."customer_id" ASC, "t0"."ordered_at" DESC) AS "__svc_d" FROM "svc_golden"."orders" AS "t0") AS "t0" WHERE "__svc_d" = 1) AS "t0" ORDER BY "t0"."customer_id" ASC, "t0"."customer_id" ASC, "t0"."ordered_at" DESC LIMIT 2000) AS "_s";
