SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM (SELECT "t0".* FROM "public"."tags" AS "t0" WHERE "t0"."id" >= CAST($1 AS integer) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;
