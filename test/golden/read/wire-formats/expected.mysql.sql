SELECT JSON_ARRAY("t0"."id", IF(MICROSECOND("t0"."ordered_at") = 0, DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%s.%fZ')), DATE_FORMAT("t0"."ship_date", '%Y-%m-%d'), "t0"."note") AS r FROM "svc_golden"."orders" AS "t0" WHERE "t0"."id" = $1 LIMIT 1;

SELECT JSON_ARRAY(CAST("t0"."price" AS DOUBLE), IF("t0"."in_stock" IS NULL, NULL, IF("t0"."in_stock", TRUE, FALSE)), JSON_EXTRACT("t0"."attributes", '$')) AS r FROM "svc_golden"."products" AS "t0" WHERE "t0"."id" = $1 LIMIT 1;

SELECT JSON_ARRAY(IF(MICROSECOND("t0"."created_at") = 0, DATE_FORMAT("t0"."created_at", '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT("t0"."created_at", '%Y-%m-%dT%H:%i:%s.%fZ'))) AS r FROM "svc_golden"."customers" AS "t0" WHERE "t0"."id" = $1 LIMIT 1;
