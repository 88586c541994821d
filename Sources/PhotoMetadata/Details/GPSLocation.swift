/// Where a photo was taken, from its GPS IFD: latitude and longitude in decimal degrees (north and east positive),
/// and the altitude in metres (negative below sea level) when present.
public struct GPSLocation: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var altitudeMetres: Double?

    public init(latitude: Double, longitude: Double, altitudeMetres: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMetres = altitudeMetres
    }

    /// Reads GPSLatitude/GPSLatitudeRef, GPSLongitude/GPSLongitudeRef (degrees, minutes, seconds as RATIONALs;
    /// fewer than three values are taken as degrees, or degrees and minutes) and GPSAltitude/GPSAltitudeRef (1 =
    /// below sea level). Nil without both coordinates; a coordinate out of range adds a warning and gives nil.
    public static func read(_ exif: ExifMetadata, warnings: inout [MetadataWarning]) -> GPSLocation? {
        func degrees(_ tag: UInt16) -> Double? {
            guard case .rationals(let parts)? = exif.value(tag, in: .gps), !parts.isEmpty, parts.count <= 3 else {
                return nil
            }
            let values = parts.map(\.doubleValue)
            guard values.allSatisfy({ $0 != nil }) else { return nil }
            let v = values.compactMap { $0 }
            return v[0] + (v.count > 1 ? v[1] / 60 : 0) + (v.count > 2 ? v[2] / 3600 : 0)
        }
        func reference(_ tag: UInt16) -> String? { exif.value(tag, in: .gps)?.text?.uppercased() }
        guard var latitude = degrees(ExifTag.gpsLatitude), var longitude = degrees(ExifTag.gpsLongitude) else {
            return nil
        }
        if reference(ExifTag.gpsLatitudeRef) == "S" { latitude = -latitude }
        if reference(ExifTag.gpsLongitudeRef) == "W" { longitude = -longitude }
        guard abs(latitude) <= 90, abs(longitude) <= 180 else {
            warnings.append(
                MetadataWarning(
                    code: "gps.out-of-range", "GPS position \(latitude), \(longitude) is outside the globe; not shown"))
            return nil
        }
        var altitude: Double?
        if case .rationals(let parts)? = exif.value(ExifTag.gpsAltitude, in: .gps),
            let metres = parts.first?.doubleValue
        {
            let below = exif.value(ExifTag.gpsAltitudeRef, in: .gps)?.firstInteger == 1
            altitude = below ? -metres : metres
        }
        return GPSLocation(latitude: latitude, longitude: longitude, altitudeMetres: altitude)
    }

    /// An OpenStreetMap link with a marker at the position, zoomed to street level.
    public var mapLink: String {
        let lat = DetailFormat.coordinate(latitude), lon = DetailFormat.coordinate(longitude)
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=17/\(lat)/\(lon)"
    }
}
