SELECT JSON_ARRAY("t0"."id", DATE_FORMAT("t0"."ship_date", '%Y-%m-%d')) AS r FROM (SELECT "t0".* FROM "svc_golden"."orders" AS "t0" ORDER BY "t0"."ship_date" ASC, "t0"."id" ASC LIMIT 3) AS "t0" ORDER BY "t0"."ship_date" ASC, "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id", "t0"."note") AS r FROM (SELECT "t0".* FROM "svc_golden"."orders" AS "t0" ORDER BY "t0"."note" DESC, "t0"."id" DESC LIMIT 3) AS "t0" ORDER BY "t0"."note" DESC, "t0"."id" DESC;

SELECT JSON_ARRAY("t0"."name", "t0"."email") AS r FROM (SELECT "t0".* FROM "svc_golden"."customers" AS "t0" ORDER BY "t0"."email" DESC LIMIT 2000) AS "t0" ORDER BY "t0"."email" DESC;

SELECT JSON_ARRAY("t0"."order_id", "t0"."line", (SELECT JSON_ARRAY("t1"."note") AS result FROM "svc_golden"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id")) AS r FROM (SELECT "t0".*, row_number() OVER (ORDER BY (SELECT "t1"."note" FROM "svc_golden"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id" LIMIT 1) ASC, "t0"."order_id" ASC, "t0"."line" ASC) AS "__svc_rn" FROM "svc_golden"."order_items" AS "t0" ORDER BY (SELECT "t1"."note" FROM "svc_golden"."orders" AS "t1" WHERE "t1"."id" = "t0"."order_id" LIMIT 1) ASC, "t0"."order_id" ASC, "t0"."line" ASC LIMIT 4) AS "t0" ORDER BY "t0"."__svc_rn";
