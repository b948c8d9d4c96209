import { randomBytes } from 'node:crypto'
import { errors, jwtVerify, SignJWT } from 'jose'

/** What an access or refresh token says about its holder. */
export interface TokenClaims {
  userId: string
  organizationId: string
}

export interface RefreshClaims extends TokenClaims {
  jti: string
  expiresAt: number
}

export interface TokenSigner {
  signAccess(claims: TokenClaims, nowMs: number): Promise<{ token: string; expiresIn: number }>
  signRefresh(claims: TokenClaims, nowMs: number): Promise<{ token: string; jti: string; expiresAt: number }>
  /** Returns the claims of a valid access token, or null for anything else (refresh tokens included). */
  verifyAccess(token: string, nowMs: number): Promise<TokenClaims | null>
  verifyRefresh(token: string, nowMs: number): Promise<RefreshClaims | null>
}

const ALGORITHM = 'HS256'

/**
 * HS256 JWTs with the algorithm, issuer, audience and `typ` claim pinned on verification, so a
 * refresh token is never accepted as an access token and vice versa.
 */
export function createTokenSigner(options: {
  secret: string
  issuer: string
  audience: string
  accessTtlS: number
  refreshTtlS: number
}): TokenSigner {
  const key = new TextEncoder().encode(options.secret)

  const sign = (claims: TokenClaims, typ: 'access' | 'refresh', nowMs: number, ttlS: number, jti: string) => {
    const iat = Math.floor(nowMs / 1000)
    return new SignJWT({ org: claims.organizationId, typ })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(options.issuer)
      .setAudience(options.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlS)
      .setJti(jti)
      .sign(key)
  }

  const verify = async (token: string, typ: 'access' | 'refresh', nowMs: number) => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [ALGORITHM],
        issuer: options.issuer,
        audience: options.audience,
        currentDate: new Date(nowMs),
        clockTolerance: 0,
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      })
      if (payload.typ !== typ || typeof payload.org !== 'string' || typeof payload.sub !== 'string')
        return null
      return {
        userId: payload.sub,
        organizationId: payload.org,
        jti: payload.jti as string,
        exp: payload.exp as number,
      }
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return null
      throw error
    }
  }

  return {
    async signAccess(claims, nowMs) {
      const token = await sign(
        claims,
        'access',
        nowMs,
        options.accessTtlS,
        randomBytes(12).toString('base64url'),
      )
      return { token, expiresIn: options.accessTtlS }
    },
    async signRefresh(claims, nowMs) {
      const jti = randomBytes(18).toString('base64url')
      const token = await sign(claims, 'refresh', nowMs, options.refreshTtlS, jti)
      return { token, jti, expiresAt: (Math.floor(nowMs / 1000) + options.refreshTtlS) * 1000 }
    },
    async verifyAccess(token, nowMs) {
      const claims = await verify(token, 'access', nowMs)
      return claims ? { userId: claims.userId, organizationId: claims.organizationId } : null
    },
    async verifyRefresh(token, nowMs) {
      const claims = await verify(token, 'refresh', nowMs)
      return claims
        ? {
            userId: claims.userId,
            organizationId: claims.organizationId,
            jti: claims.jti,
            expiresAt: claims.exp * 1000,
          }
        : null
    },
  }
}
