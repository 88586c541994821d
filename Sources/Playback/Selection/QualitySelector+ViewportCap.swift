extension QualitySelector {
    /// The highest variant index allowed by the viewport (all when nil).
    ///
    /// Like hls.js `capLevelToPlayerSize`: the first variant (ascending) that covers the viewport in width or
    /// height is the cap, taking the highest-bandwidth variant of that same resolution; so the pick is at most
    /// one resolution step above what the viewport needs. Variants without a resolution never limit the cap.
    public static func viewportCap(variants: [VariantInfo], viewport: Viewport?) -> Int {
        let top = variants.count - 1
        guard let viewport, top > 0 else { return max(top, 0) }
        for (i, variant) in variants.enumerated() {
            guard let width = variant.width, let height = variant.height else { continue }
            guard width >= viewport.widthPixels || height >= viewport.heightPixels else { continue }
            var cap = i
            while cap < top, variants[cap + 1].width == width, variants[cap + 1].height == height { cap += 1 }
            return cap
        }
        return top
    }
}
