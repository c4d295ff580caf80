SELECT "t0"."id" AS c0, "t0"."name" AS c1, "t0"."email" AS c2 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."country" = $1 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM (SELECT "t0".* FROM "public"."customers" AS "t0" WHERE "t0"."country" = $1 LIMIT 2000) AS "t0";

SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM (SELECT "t0".* FROM "public"."tags" AS "t0" ORDER BY "t0"."id" ASC LIMIT 1) AS "t0" ORDER BY "t0"."id" ASC;
