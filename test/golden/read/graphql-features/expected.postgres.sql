SELECT COALESCE(json_agg(_s._j ORDER BY _s._rn), '[]'::json) AS result FROM (SELECT json_build_object('id', "t0"."id", 'name', "t0"."name", 'email', "t0"."email") AS _j, row_number() OVER (ORDER BY "t0"."id" ASC NULLS FIRST) AS _rn FROM "public"."customers" AS "t0" WHERE "t0"."country" = CAST($1 AS text) ORDER BY "t0"."id" ASC NULLS FIRST LIMIT 2000) AS _s;

SELECT COALESCE(json_agg(_s._j), '[]'::json) AS result FROM (SELECT json_build_object('__typename', CAST($1 AS text), 'id', "t0"."id", 'name', "t0"."name") AS _j FROM "public"."customers" AS "t0" WHERE "t0"."country" = CAST($2 AS text) LIMIT 2000) AS _s;

SELECT COALESCE(json_agg(_s._j ORDER BY _s._rn), '[]'::json) AS result FROM (SELECT json_build_object('id', "t0"."id", 'name', "t0"."name") AS _j, row_number() OVER (ORDER BY "t0"."id" ASC NULLS FIRST) AS _rn FROM "public"."tags" AS "t0" ORDER BY "t0"."id" ASC NULLS FIRST LIMIT 1) AS _s;
